//! What NVIDIA's tables say of a GPU's chip, by PCI device id, without a driver: the chip pci.ids
//! names it by (`2704` is `AD103`), the architecture that chip's prefix stands for
//! (`ada-lovelace`), its CUDA compute capability from NVIDIA's CUDA GPUs tables, and whether
//! NVIDIA's MIG user guide lists it. GPU Feature Discovery asks NVML for the same facts, so it
//! needs a loaded driver; these come from bundled, dated tables in `data/`
//! (docs/fleet.md#beside-gpu-feature-discovery), and a fact no table gives is `None`.

/// pci.ids' chip per NVIDIA device id (pci-ids-chips.py wrote it).
const CHIPS: &str = include_str!("../data/pci-ids-chips.tsv");
/// Compute capability per chip, each row with the NVIDIA product that shows it.
const COMPUTE: &str = include_str!("../data/compute-capability.tsv");
/// The MIG user guide's supported GPUs, by device id.
const MIG: &str = include_str!("../data/mig-capable.tsv");

/// A chip name's prefix and the architecture it stands for, in GPU Feature Discovery's words
/// (`nvidia.com/gpu.family`, `getArchFamily` in NVIDIA/k8s-device-plugin `internal/lm/resource.go`).
/// NVIDIA names each architecture's chips so in its architecture whitepapers (Fermi GF100,
/// Kepler GK110, Maxwell GM204, Pascal GP100, Volta GV100, Turing TU102, Ampere GA100 and GA102,
/// Ada AD102, Hopper GH100, Blackwell GB202) and in the MIG user guide's table (GA100, GH100,
/// GB100, GB202 beside their architecture).
pub const ARCHITECTURES: [(&str, &str); 10] = [
    ("GF", "fermi"),
    ("GK", "kepler"),
    ("GM", "maxwell"),
    ("GP", "pascal"),
    ("GV", "volta"),
    ("TU", "turing"),
    ("GA", "ampere"),
    ("AD", "ada-lovelace"),
    ("GH", "hopper"),
    ("GB", "blackwell"),
];

/// Architectures before Ampere, which the MIG user guide says MIG does not reach ("MIG is
/// supported on GPUs starting with the NVIDIA Ampere generation").
const BEFORE_MIG: [&str; 6] = ["fermi", "kepler", "maxwell", "pascal", "volta", "turing"];

/// What the tables say of one GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChipFacts {
    /// pci.ids' chip (`AD103`).
    pub chip: &'static str,
    /// The architecture, GFD's family word (`ada-lovelace`); `None` for a prefix not mapped.
    pub architecture: Option<&'static str>,
    /// CUDA compute capability, major and minor; `None` when no NVIDIA table shows the chip's.
    pub compute: Option<(u8, u8)>,
    /// `Some(true)` when the MIG guide lists the GPU, `Some(false)` for an architecture before
    /// Ampere, `None` otherwise.
    pub mig_capable: Option<bool>,
}

/// The data rows of a bundled table: comments and blank lines skipped, columns split on tabs.
#[cfg(test)]
fn rows(text: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
}

/// The columns after the first of the row of `text` whose first column is `key`: a search of
/// the text (memchr's SIMD `memmem`), not a parsed map, since `report` looks up a few GPUs once
/// and building a map of 960 rows would cost more than all the searches. Every table starts
/// with a comment line, so each data row follows a newline.
fn row_of(text: &'static str, key: &str) -> Option<std::str::Split<'static, char>> {
    let needle = format!("\n{key}\t");
    let at = memchr::memmem::find(text.as_bytes(), needle.as_bytes())? + 1;
    let line = text.get(at..)?.lines().next()?;
    let mut cols = line.split('\t');
    cols.next();
    Some(cols)
}

/// `8.9` as `(8, 9)`.
fn parse_capability(s: &str) -> Option<(u8, u8)> {
    let (major, minor) = s.split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// The architecture a chip name's prefix stands for.
pub fn architecture(chip: &str) -> Option<&'static str> {
    ARCHITECTURES
        .iter()
        .find(|(prefix, _)| chip.starts_with(prefix))
        .map(|(_, arch)| *arch)
}

/// What the tables say of NVIDIA device `device_id`; `None` when pci.ids names no chip for it.
pub fn lookup(device_id: u16) -> Option<ChipFacts> {
    let id = format!("{device_id:04x}");
    let chip = row_of(CHIPS, &id)?.next()?;
    let architecture = architecture(chip);
    let mig_capable = if row_of(MIG, &id).is_some() {
        Some(true)
    } else if architecture.is_some_and(|a| BEFORE_MIG.contains(&a)) {
        Some(false)
    } else {
        None
    };
    Some(ChipFacts {
        chip,
        architecture,
        compute: row_of(COMPUTE, chip)
            .and_then(|mut cols| cols.next())
            .and_then(parse_capability),
        mig_capable,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn id(s: &str) -> Option<u16> {
        (s.len() == 4).then(|| u16::from_str_radix(s, 16).ok())?
    }

    /// Every data row of every table parses and is found by its key, once: a bad edit fails
    /// here, not as a missing label.
    #[test]
    fn every_row_parses() {
        let chips: Vec<_> = rows(CHIPS).collect();
        assert!(chips.len() > 900, "{}", chips.len());
        for r in &chips {
            let device = id(r[0]).unwrap_or_else(|| panic!("{r:?}"));
            assert_eq!(r.len(), 3, "{r:?}");
            assert_eq!(lookup(device).map(|f| f.chip), Some(r[1]), "{r:?}");
        }
        let mut keys: Vec<&str> = chips.iter().map(|r| r[0]).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), chips.len(), "a device id twice");
        for r in rows(COMPUTE) {
            assert_eq!(r.len(), 4, "{r:?}");
            assert!(parse_capability(r[1]).is_some(), "{r:?}");
        }
        for r in rows(MIG) {
            assert!(id(r[0]).is_some() && r.len() == 3, "{r:?}");
        }
    }

    /// Each compute row's chip is one pci.ids names, with an architecture, and its capability
    /// agrees with GFD's own family for that capability (`getArchFamily`).
    #[test]
    fn compute_rows_agree_with_gfds_family() {
        let gfd = |major: u8, minor: u8| match (major, minor) {
            (5, _) => "maxwell",
            (6, _) => "pascal",
            (7, m) if m < 5 => "volta",
            (7, _) => "turing",
            (8, m) if m < 9 => "ampere",
            (8, _) => "ada-lovelace",
            (9, _) => "hopper",
            (10 | 12, _) => "blackwell",
            _ => "undefined",
        };
        for r in rows(COMPUTE) {
            let (chip, cc) = (r[0], parse_capability(r[1]));
            let (major, minor) = cc.unwrap_or_else(|| panic!("{r:?}"));
            assert!(rows(CHIPS).any(|c| c[1] == chip), "{chip}");
            assert_eq!(architecture(chip), Some(gfd(major, minor)), "{chip}");
        }
    }

    /// Every MIG row is a GPU pci.ids names with an Ampere-or-newer chip.
    #[test]
    fn mig_rows_are_known_ampere_or_newer_gpus() {
        for r in rows(MIG) {
            let facts = id(r[0]).and_then(lookup).unwrap_or_else(|| panic!("{r:?}"));
            assert_eq!(facts.mig_capable, Some(true));
            let arch = facts.architecture.unwrap_or_default();
            assert!(!BEFORE_MIG.contains(&arch), "{r:?} {arch}");
        }
    }

    /// What a lookup gives, as plain values: chip, architecture, capability, MIG.
    type Want = Option<(
        &'static str,
        Option<&'static str>,
        Option<(u8, u8)>,
        Option<bool>,
    )>;

    #[rstest]
    // GeForce RTX 4080: Ada Lovelace, 8.9 (cuda-gpus), not in the MIG guide.
    #[case(0x2704, Some(("AD103", Some("ada-lovelace"), Some((8, 9)), None)))]
    #[case(0x2901, Some(("GB100", Some("blackwell"), Some((10, 0)), Some(true))))]
    #[case(0x20b2, Some(("GA100", Some("ampere"), Some((8, 0)), Some(true))))]
    #[case(0x2330, Some(("GH100", Some("hopper"), Some((9, 0)), Some(true))))]
    #[case(0x1db4, Some(("GV100", Some("volta"), Some((7, 0)), Some(false))))]
    #[case(0x1eb8, Some(("TU104", Some("turing"), Some((7, 5)), Some(false))))]
    // TITAN RTX: Turing, but no NVIDIA table read here gives TU102's capability.
    #[case(0x1e02, Some(("TU102", Some("turing"), None, Some(false))))]
    // Tesla K40m: pci.ids' GK110BGL is chip GK110B, Kepler; no capability row.
    #[case(0x1023, Some(("GK110B", Some("kepler"), None, Some(false))))]
    #[case(0x0dc4, Some(("GF106", Some("fermi"), None, Some(false))))]
    // GB10 (DGX Spark): Blackwell, capability left out (GB20B names other products too).
    #[case(0x2e12, Some(("GB20B", Some("blackwell"), None, None)))]
    // An id pci.ids does not name, and one it names without a chip (a nForce function).
    #[case(0xfffe, None)]
    #[case(0x0050, None)]
    fn lookup_says_what_the_tables_say(#[case] id: u16, #[case] want: Want) {
        let got = lookup(id).map(|f| (f.chip, f.architecture, f.compute, f.mig_capable));
        assert_eq!(got, want);
    }
}
