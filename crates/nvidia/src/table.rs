//! The built-in NVIDIA generation table: which kernel module and driver branches each PCI device
//! id needs, exactly the rows of Rex-GPU 0.003+ (docs/requirement.md#nvidia-rows), in order,
//! first match wins. Every id 0000-2fff has a row; above that only the three Blackwell Ultra ids
//! do, and anything else gets any module, no bounds and no compute opinion.

use std::borrow::Cow;

use gpuctl_core::plugin::requirement::Requirement;

use crate::model::KernelModule;
use crate::model::table::{GenerationRow, GenerationTable};

use KernelModule::{Either, Open, Proprietary};

/// A built-in row: plain `Copy` data, so the whole table can be checked by the compiler (see
/// the assertion below) and turned into [`GenerationRow`]s without a failure path.
#[derive(Debug, Clone, Copy)]
struct BuiltinRow {
    range: (u16, u16),
    generation: &'static str,
    kernel_module: KernelModule,
    bounds: (Option<u32>, Option<u32>),
    compute: bool,
}

const fn row(
    range: (u16, u16),
    generation: &'static str,
    kernel_module: KernelModule,
    bounds: (Option<u32>, Option<u32>),
    compute: bool,
) -> BuiltinRow {
    BuiltinRow {
        range,
        generation,
        kernel_module,
        bounds,
        compute,
    }
}

impl BuiltinRow {
    fn to_row(self) -> Option<GenerationRow> {
        let generation = Some(Cow::Borrowed(self.generation));
        GenerationRow::new(
            self.range,
            generation,
            self.kernel_module,
            self.bounds,
            Some(self.compute),
        )
        .ok()
    }
}

/// The built-in rows, in search order. Narrow rows sit before the blocks they are part of.
const BUILTIN_ROWS: [BuiltinRow; 9] = [
    // GB10 (DGX Spark) 2E12: open only, branch 580 or newer (not 570): NVIDIA lists 2E12 first in
    // 580.119.02 (open-gpu-kernel-modules README of that tag; 580.105.08, every 570/575 release
    // and 590.44.01 lack it). Rex-GPU 0.003, checked 2026-09-23; karr #33.
    row((0x2e12, 0x2e12), "Blackwell", Open, (Some(580), None), true),
    // Blackwell 2900-2FFF (B200 2901, GB200 2941, RTX 50xx, RTX PRO Blackwell): open only, branch
    // 570 or newer. open-gpu-kernel-modules README supported-GPU table (driver 615.71.09): every
    // listed id from 2901 to 2F58 is Blackwell, the last Ada id is 28F8. Checked 2026-09-23;
    // karr #16.
    row((0x2900, 0x2fff), "Blackwell", Open, (Some(570), None), true),
    // Blackwell Ultra B300 SXM6 AC 3182: open only, 580 or newer. Same README (615.71.09), listed
    // one by one, not as a block (3180, 3181, 3183-31C1 have no row). Checked 2026-09-23.
    row(
        (0x3182, 0x3182),
        "Blackwell Ultra",
        Open,
        (Some(580), None),
        true,
    ),
    // Blackwell Ultra GB300 31C2, 31C3: open only, 580 or newer. Same README (615.71.09); 31C3
    // appears in no README up to 595.45.04
    // (docs/requirement.md#where-each-nvidia-row-comes-from). Checked 2026-09-23.
    row(
        (0x31c2, 0x31c3),
        "Blackwell Ultra",
        Open,
        (Some(580), None),
        true,
    ),
    // Grace Hopper GH200 2342: open only, 535 or newer. 2342 is in the open-gpu-kernel-modules
    // README from 535.43.19; open-only is Rex-GPU's "maintainer decision (karr #72)" after
    // NVIDIA's 2024 blog post. Rex-GPU 0.003 (release 2026-10-01).
    row(
        (0x2342, 0x2342),
        "Grace Hopper",
        Open,
        (Some(535), None),
        true,
    ),
    // Grace Hopper GH200 2348: open only, 565 or newer (in the README from 565.57.01). Same
    // decision (karr #72). Rex-GPU 0.003 (release 2026-10-01).
    row(
        (0x2348, 0x2348),
        "Grace Hopper",
        Open,
        (Some(565), None),
        true,
    ),
    // Turing, Ampere, Ada, Hopper 1DF7-28FF: no constraint; NVIDIA's current list (615.71.09) runs
    // from 1E02 (TITAN RTX) to 28F8 here and no legacy list has an id above 1DF6. Compute,
    // GeForce MX450/MX550/MX570 and GTX 16xx included. Checked 2026-09-24; karr #45, #54.
    row(
        (0x1df7, 0x28ff),
        "Turing/Ampere/Ada/Hopper",
        Either,
        (None, None),
        true,
    ),
    // Maxwell, Pascal, Volta 1340-1DF6 (Tesla M60/M40, P100, P40, P4, V100, TITAN V, GT 1030,
    // MX1xx, GTX 750 Ti, GTX 9xx): proprietary only, 580 is the last branch. The 580 legacy list
    // of NVIDIA's supportedchips README (615.71.09) is exactly 1340-1DF6. Checked 2026-09-23;
    // karr #26.
    row(
        (0x1340, 0x1df6),
        "Maxwell/Pascal/Volta",
        Proprietary,
        (None, Some(580)),
        true,
    ),
    // Kepler and older, every id below 1340 (Kepler 0FC6-12BA, Fermi and earlier): the 470 and
    // older legacy lists of the supportedchips README (615.71.09). Proprietary only, nothing
    // newer than 470; not compute at any PCI class (class-0302 Tesla K80/K40/K20 too, karr #55).
    // Checked 2026-09-23/24.
    row(
        (0x0000, 0x133f),
        "Kepler or older",
        Proprietary,
        (None, Some(470)),
        false,
    ),
];

// Every built-in row is a valid row, checked at compile time: a bad edit fails the build, so
// `BuiltinRow::to_row` never drops a row at run time.
const _: () = {
    let mut i = 0;
    while i < BUILTIN_ROWS.len() {
        assert!(GenerationRow::check(BUILTIN_ROWS[i].range, BUILTIN_ROWS[i].bounds).is_ok());
        i += 1;
    }
};

/// The built-in table (docs/requirement.md#nvidia-rows), for looking up or extending with
/// site-policy rows.
pub fn builtin_table() -> GenerationTable {
    GenerationTable::new(BUILTIN_ROWS.iter().filter_map(|r| r.to_row()).collect())
}

/// The built-in requirement of NVIDIA device `device_id`: what `gpuctl detect` reports and what
/// decides whether a GPU counts as compute. Built-in rows only: detection ignores site rows.
pub fn builtin_requirement(device_id: u16) -> Requirement {
    builtin_table().lookup(device_id)
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::expect_used,
        reason = "a broken fixture should stop the test loudly"
    )]

    use super::*;
    use crate::model::{RexFacts, unconstrained};
    use proptest::prelude::*;
    use rstest::rstest;

    type Shape = (
        Option<&'static str>,
        KernelModule,
        Option<u32>,
        Option<u32>,
        Option<bool>,
    );

    const BW: &str = "Blackwell";
    const BWU: &str = "Blackwell Ultra";
    const GH: &str = "Grace Hopper";
    const TAH: &str = "Turing/Ampere/Ada/Hopper";
    const MPV: &str = "Maxwell/Pascal/Volta";
    const KEP: &str = "Kepler or older";

    /// docs/requirement.md#nvidia-rows written as a `match`, independently of the rows above.
    fn expected(id: u16) -> Shape {
        match id {
            0x2e12 => (Some(BW), Open, Some(580), None, Some(true)),
            0x2900..=0x2fff => (Some(BW), Open, Some(570), None, Some(true)),
            0x3182 | 0x31c2 | 0x31c3 => (Some(BWU), Open, Some(580), None, Some(true)),
            0x2342 => (Some(GH), Open, Some(535), None, Some(true)),
            0x2348 => (Some(GH), Open, Some(565), None, Some(true)),
            0x1df7..=0x28ff => (Some(TAH), Either, None, None, Some(true)),
            0x1340..=0x1df6 => (Some(MPV), Proprietary, None, Some(580), Some(true)),
            0x0000..=0x133f => (Some(KEP), Proprietary, None, Some(470), Some(false)),
            _ => (None, Either, None, None, None),
        }
    }

    fn shape(
        r: &Requirement,
    ) -> (
        Option<&str>,
        KernelModule,
        Option<u32>,
        Option<u32>,
        Option<bool>,
    ) {
        (
            r.generation(),
            r.kernel_module(),
            r.min_branch(),
            r.max_branch(),
            r.compute(),
        )
    }

    #[test]
    fn the_table_is_the_reference_table() {
        assert_eq!(builtin_table().rows().len(), BUILTIN_ROWS.len());
    }

    #[test]
    fn every_id_gets_the_reference_row() {
        let table = builtin_table();
        for id in 0..=u16::MAX {
            let r = table.lookup(id);
            assert_eq!(shape(&r), expected(id), "{id:04x}");
            assert_eq!(r.device_id(), Some(id));
            assert_eq!(builtin_requirement(id), r);
        }
    }

    // Rex-GPU's t/98-requirement.t boundaries (docs/requirement.md#rex-gpus-test-cases), through
    // the lenient text lookup (any case, device_id lowered).
    #[rstest]
    #[case(&["0000", "0020", "102d", "133f"], (Some(KEP), Proprietary, None, Some(470)))]
    #[case(&["1340", "1db4", "1DB4", "1df6"], (Some(MPV), Proprietary, None, Some(580)))]
    #[case(&["1df7", "1e02", "1f97", "2330", "28f8", "28ff"], (Some(TAH), Either, None, None))]
    #[case(&["2900", "2901", "2e11", "2e13", "2fff"], (Some(BW), Open, Some(570), None))]
    #[case(&["2e12", "2E12"], (Some(BW), Open, Some(580), None))]
    #[case(&["3000", "3181", "3183", "31c1", "31c4", "ffff"], (None, Either, None, None))]
    #[case(&["3182", "31c2", "31c3"], (Some(BWU), Open, Some(580), None))]
    #[case(&["2342"], (Some(GH), Open, Some(535), None))]
    #[case(&["2348"], (Some(GH), Open, Some(565), None))]
    fn boundaries(
        #[case] ids: &[&str],
        #[case] want: (Option<&str>, KernelModule, Option<u32>, Option<u32>),
    ) {
        for id in ids {
            let r = builtin_table().for_device_id(Some(id));
            assert_eq!(
                (
                    r.generation(),
                    r.kernel_module(),
                    r.min_branch(),
                    r.max_branch()
                ),
                want
            );
            assert_eq!(
                r.device_id().map(|d| format!("{d:04x}")),
                Some(id.to_ascii_lowercase())
            );
        }
    }

    #[test]
    fn a_named_gpu_keeps_its_row() {
        let r = builtin_table()
            .for_device_id(Some("1db6"))
            .with_name("GV100GL [Tesla V100 PCIe 32GB]");
        assert_eq!(r.max_branch(), Some(580));
        assert_eq!(
            r.who(),
            "GV100GL [Tesla V100 PCIe 32GB] (Maxwell/Pascal/Volta, 10de:1db6)"
        );
    }

    #[rstest]
    fn malformed_ids_get_no_opinion(
        #[values(
            None,
            Some(""),
            Some("1db"),
            Some("zzzz"),
            Some("1db40"),
            Some("2b85x"),
            Some("0x1db4")
        )]
        id: Option<&str>,
    ) {
        assert_eq!(builtin_table().for_device_id(id), unconstrained());
    }

    // Rex-GPU's compute lists (t/98) and t/80 (open_kernel_module_required, 2342 changed in 0.003);
    // docs/requirement.md#rex-gpus-test-cases.
    #[rstest]
    #[case(
        "1340 1380 13c0 174d 1d01 1db4 1df6 1df7 1e02 1f97 2330 28ff 2900 2901 2c18 2c77 2bb9 2e12 2fff 3182 31c2 31c3",
        Some(true)
    )]
    #[case("0000 0fc5 1004 102d 128b 133f", Some(false))]
    #[case("3000 3181 3183 31c1 31c4 ffff", None)]
    fn compute_flags(#[case] ids: &str, #[case] want: Option<bool>) {
        for id in ids.split(' ') {
            assert_eq!(
                builtin_table().for_device_id(Some(id)).compute(),
                want,
                "{id}"
            );
        }
    }

    #[rstest]
    #[case(
        "2e12 2E12 2b85 2C02 2d04 2f04 2bb1 2bb5 2901 2941 3182 31c2 2900 2fff 2342 2348",
        true
    )]
    #[case(
        "27b0 ffff 28f8 2684 26b9 2330 20b0 1eb0 3000 3181 31c4 9999 2b8 2b85x zzzz",
        false
    )]
    fn open_module_required(#[case] ids: &str, #[case] want: bool) {
        for id in ids.split(' ') {
            let r = builtin_table().for_device_id(Some(id));
            assert_eq!(r.kernel_module() == Open, want, "{id}");
        }
    }

    // Rex-GPU's t/95 (legacy_driver_requirement, docs/requirement.md#rex-gpus-test-cases): the max
    // branch below 0x1df7 only.
    #[rstest]
    #[case(
        "1340 13f2 17fd 15f7 15F8 1b38 1bb3 1d81 1db1 1db4 1db5 1db6 1df6",
        Some(580)
    )]
    #[case("0fc6 1023 1024 1028 102d 12ba 1091 06d1 0020 0000 133f", Some(470))]
    #[case(
        "1df7 1e01 1e02 1eb8 1f82 2182 21c4 20b0 2330 27b0 2684 2901 2e12 3182 9999 ffff 1db zzzz 1db40",
        None
    )]
    fn legacy_max_branch(#[case] ids: &str, #[case] want: Option<u32>) {
        for id in ids.split(' ') {
            assert_eq!(
                builtin_table().for_device_id(Some(id)).max_branch(),
                want,
                "{id}"
            );
        }
    }

    fn arb_row() -> impl Strategy<Value = GenerationRow> {
        (
            any::<u16>(),
            any::<u16>(),
            0..3u8,
            proptest::option::of(400..700u32),
            any::<Option<bool>>(),
        )
            .prop_filter_map("rows valid by construction", |(a, b, m, min, compute)| {
                let module = [Open, Proprietary, Either][usize::from(m)];
                GenerationRow::new(
                    (a.min(b), a.max(b)),
                    Some(format!("site {a:04x}").into()),
                    module,
                    (min, None),
                    compute,
                )
                .ok()
            })
    }

    proptest! {
        /// With site rows in front of the built-in ones, every id maps to exactly the first
        /// row whose range holds it, and to no opinion when none does.
        #[test]
        fn first_covering_row_wins(site in proptest::collection::vec(arb_row(), 0..6), id in any::<u16>()) {
            let table = builtin_table().with_prepended(site.clone());
            let rows: Vec<GenerationRow> = site.into_iter().chain(builtin_table().rows().iter().cloned()).collect();
            let first = rows.iter().position(|r| r.first() <= id && id <= r.last());
            prop_assert_eq!(table.row_for(id).map(|(i, _)| i), first);
            let got = table.lookup(id);
            match first {
                Some(i) => {
                    let row = &rows[i];
                    prop_assert_eq!(got.generation(), row.generation());
                    prop_assert_eq!(got.kernel_module(), row.kernel_module());
                    prop_assert_eq!((got.min_branch(), got.max_branch()), (row.min_branch(), row.max_branch()));
                    prop_assert_eq!(got.compute(), row.compute());
                }
                None => prop_assert_eq!(shape(&got), (None, Either, None, None, None)),
            }
        }
    }
}
