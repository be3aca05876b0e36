//! Issue 24's AMD and Intel examples, as printed: each release's own list decides (ROCm's
//! matrices, the amdgpu/i915/xe id lists of the kernel releases read), and what no read
//! release lists is never a pass.

use predicates::prelude::*;
use rstest::rstest;

use super::gpuctl;

fn requirement(args: &[&str]) -> assert_cmd::Command {
    let mut all = vec!["requirement"];
    all.extend_from_slice(args);
    gpuctl(&all)
}

/// gfx900 (MI25) is in no ROCm release of crates/amd/data/rocm-gpus.tsv: "unofficial" is its
/// own answer, never "satisfies", whatever the kernel.
#[test]
fn an_unofficial_target_never_satisfies() {
    requirement(&[
        "1002:6860",
        "--driver",
        "rocm:6.2",
        "--driver",
        "kernel:6.8",
    ])
    .assert()
    .code(1)
    .stdout(predicate::str::contains(
        "driver rocm:6.2, kernel:6.8: unknown — AMD Radeon Instinct MI25 (gfx900, \
             1002:6860): unofficial: no ROCm release read (5.5.1 to 7.2.3) lists gfx900 \
             officially; none is counted as a pass\n",
    ))
    .stdout(predicate::str::contains(": satisfies").not());
}

/// 6602 (OLAND) and 983a (KABINI) are in amdgpu's pciidlist of every kernel read, though libdrm
/// names neither and the thunk gives neither a target: known devices, never "unknown device".
/// Both are SI/CIK chips: amdgpu-si-cik.tsv (amdgpu_drv.c of each release read) says which
/// releases need the module parameters.
#[rstest]
#[case("6602", "OLAND", "amdgpu.si_support=1 radeon.si_support=0")]
#[case("983a", "KABINI", "amdgpu.cik_support=1 radeon.cik_support=0")]
fn pciidlist_ids_are_known(#[case] id: &str, #[case] chip: &str, #[case] params: &str) {
    requirement(&[
        &format!("1002:{id}"),
        "--driver",
        "rocm:6.2",
        "--driver",
        "kernel:6.8",
    ])
    .assert()
    .code(1)
    .stdout(predicate::str::contains(format!(
        "note: amdgpu's pciidlist lists it as CHIP_{chip}"
    )))
    .stdout(predicate::str::contains(format!(
        "in Linux 5.10.223, 6.1.176, 6.12.117 only with {params} (radeon has it otherwise); by \
         default in Linux 7.2.13, 7.3.4"
    )))
    .stdout(predicate::str::contains("unknown device").not())
    .stdout(predicate::str::contains(": satisfies").not());
}

/// Cyan Skillfish (gfx1013, 13f9-13fc): no ROCm release lists its target, so never "any driver"
/// nor a pass; amdgpu's pciidlist lists the four from Debian's 6.1.176 on, not in 5.10.223.
#[rstest]
#[case("13f9")]
#[case("13fa")]
#[case("13fb")]
#[case("13fc")]
fn cyan_skillfish_is_never_any_driver(#[case] id: &str) {
    requirement(&[
        &format!("1002:{id}"),
        "--driver",
        "rocm:7.2.3",
        "--driver",
        "kernel:7.3.4",
    ])
    .assert()
    .code(1)
    .stdout(predicate::str::contains(format!(
        "AMD GPU (gfx1013, 1002:{id}): Linux kernel 6.1.176 or newer\n"
    )))
    .stdout(predicate::str::contains(format!(
        "unknown — AMD GPU (gfx1013, 1002:{id}): unofficial: no ROCm release read \
             (5.5.1 to 7.2.3) lists gfx1013 officially; none is counted as a pass"
    )))
    .stdout(predicate::str::contains("any driver").not());
}

/// 56c0 (ATS-M) with i915 on Linux 7.2: ats_m_info has .require_force_probe in every release
/// read (crates/intel/data/kernel-releases.tsv, 7.2.13 included), so the requirement names
/// i915.force_probe=56c0 for the i915 alternative, and the verdict refuses a stock kernel.
#[test]
fn ats_m_with_i915_needs_force_probe() {
    requirement(&["8086:56c0", "--driver", "i915", "--driver", "kernel:7.2"])
        .assert()
        .stdout(predicate::str::starts_with(
            "Intel GPU (Arctic Sound-M, 8086:56c0): i915 kernel driver (needs i915.force_probe=56c0) \
             or xe kernel driver",
        ));
}

/// The gate of `driver`'s listing of `id` at `release` in crates/intel/data/kernel-releases.tsv
/// (i915_pci.c/xe_pci.c of Debian's linux-source packages, as extracted).
fn gate(release: &str, driver: &str, id: &str) -> Option<&'static str> {
    include_str!("../../../intel/data/kernel-releases.tsv")
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f.len() == 5 && f[..3] == [release, driver, id])
        .map(|f| f[4])
}

/// 56c0 (ATS-M): ats_m_info has .require_force_probe in 7.2.13's i915 and its xe desc too, so
/// a stock 7.2 kernel binds it with neither driver: "does not satisfy", naming the parameter as
/// the remedy, never a plain "satisfies"; a stack that sets it fits. 56a5 (DG2): i915 asks for
/// it before 6.2 (i915-releases.tsv) and 6.1.176 still does, so 6.1 does not satisfy and 6.2
/// does.
#[rstest]
#[case(&["8086:56c0", "--driver", "i915", "--driver", "kernel:7.2"], 1,
       "driver i915, kernel:7.2: does not satisfy — Intel GPU (Arctic Sound-M, 8086:56c0): i915 \
        binds 56c0 only with i915.force_probe=56c0, which a stock kernel does not set: add it to \
        the kernel command line\n")]
#[case(&["8086:56c0", "--driver", "xe", "--driver", "kernel:7.2"], 1,
       "driver xe, kernel:7.2: does not satisfy — Intel GPU (Arctic Sound-M, 8086:56c0): xe binds \
        56c0 only with xe.force_probe=56c0 and i915.force_probe=!56c0, which a stock kernel does \
        not set: add it to the kernel command line\n")]
#[case(&["8086:56c0", "--driver", "kernel:7.2"], 1,
       "driver kernel:7.2: does not satisfy — Intel GPU (Arctic Sound-M, 8086:56c0): i915 binds \
        56c0 only with i915.force_probe=56c0, which a stock kernel does not set: add it to the \
        kernel command line\n")]
#[case(&["8086:56c0", "--driver", "i915", "--driver", "kernel:7.2", "--driver",
         "i915.force_probe=56c0"], 0,
       "driver i915, kernel:7.2, i915.force_probe=56c0: satisfies\n")]
// The kernel reads `-` in a parameter's name as `_`.
#[case(&["8086:56c0", "--driver", "kernel:7.2", "--driver", "i915.force-probe=56c0"], 0,
       "driver kernel:7.2, i915.force-probe=56c0: satisfies\n")]
// The setting of another id is no setting of this one.
#[case(&["8086:56c0", "--driver", "i915", "--driver", "kernel:7.2", "--driver",
         "i915.force_probe=56c1"], 1,
       "driver i915, kernel:7.2, i915.force_probe=56c1: does not satisfy — Intel GPU (Arctic \
        Sound-M, 8086:56c0): i915 binds 56c0 only with i915.force_probe=56c0, which a stock kernel \
        does not set: add it to the kernel command line\n")]
#[case(&["8086:56a5", "--driver", "i915", "--driver", "kernel:6.1"], 1,
       "driver i915, kernel:6.1: does not satisfy — Intel GPU (Alchemist, 8086:56a5): before \
        Linux 6.2, i915 binds 56a5 only with i915.force_probe=56a5, which a stock kernel does not \
        set: add it to the kernel command line\n")]
#[case(&["8086:56a5", "--driver", "i915", "--driver", "kernel:6.2"], 0,
       "driver i915, kernel:6.2: satisfies\n")]
// An unknown kernel is said as its floor first, not as a setting it may not need.
#[case(&["8086:56a5", "--driver", "i915"], 1,
       "driver i915: unknown — Intel GPU (Alchemist, 8086:56a5): Linux kernel not known, 6.0 or \
        newer is needed\n")]
fn a_binding_gated_by_force_probe_does_not_satisfy_a_stock_kernel(
    #[case] args: &[&str],
    #[case] code: i32,
    #[case] verdict: &str,
) {
    assert_eq!(gate("7.2.13", "i915", "56c0"), Some("force_probe"));
    assert_eq!(gate("7.2.13", "xe", "56c0"), Some("force_probe"));
    assert_eq!(gate("6.1.176", "i915", "56a5"), Some("force_probe"));
    assert_eq!(gate("6.12.117", "i915", "56a5"), Some("none"));
    requirement(args)
        .assert()
        .code(code)
        .stdout(predicate::str::ends_with(verdict));
}

/// d74a/d74b: Debian's 7.3.4 lists them, 7.2.13 does not, so 7.2 does not satisfy; d744: 7.2.13
/// lists it (nvls_desc, force_probe), so it is known, and 7.3.4, which dropped it, does not
/// satisfy; 674c: cri_desc is gated in 7.2.13, so force_probe is settled.
#[rstest]
#[case(&["8086:d74a", "--driver", "kernel:7.2"], 1,
       "Intel GPU (Nova Lake-S, 8086:d74a): xe kernel driver, Linux kernel 7.3.4 or newer\n",
       "driver kernel:7.2: does not satisfy — Intel GPU (Nova Lake-S, 8086:d74a): kernel 7.2 is older than 7.3.4\n")]
#[case(&["8086:d74b", "--driver", "kernel:7.2"], 1,
       "Intel GPU (Nova Lake-S, 8086:d74b): xe kernel driver, Linux kernel 7.3.4 or newer\n",
       "driver kernel:7.2: does not satisfy — Intel GPU (Nova Lake-S, 8086:d74b): kernel 7.2 is older than 7.3.4\n")]
#[case(&["8086:d744", "--driver", "kernel:7.3.4"], 1,
       "Intel GPU (Nova Lake-S, 8086:d744): xe kernel driver (Linux kernel 7.2.13 or older; needs \
        xe.force_probe=d744 and i915.force_probe=!d744), Linux kernel 6.19 or newer\n",
       "driver kernel:7.3.4: does not satisfy — Intel GPU (Nova Lake-S, 8086:d744): with the xe kernel driver, kernel 7.3.4 is newer than 7.2.13\n")]
#[case(&["8086:674c", "--driver", "kernel:7.2"], 1,
       "Intel GPU (Crescent Island, 8086:674c): xe kernel driver (needs xe.force_probe=674c and \
        i915.force_probe=!674c), Linux kernel 6.19 or newer\n",
       "driver kernel:7.2: does not satisfy — Intel GPU (Crescent Island, 8086:674c): xe binds \
        674c only with xe.force_probe=674c and i915.force_probe=!674c, which a stock kernel does \
        not set: add it to the kernel command line\n")]
#[case(&["8086:674c", "--driver", "kernel:7.2", "--driver", "xe.force_probe=674c",
         "--driver", "i915.force_probe=!674c"], 0,
       "Intel GPU (Crescent Island, 8086:674c): xe kernel driver (needs xe.force_probe=674c and \
        i915.force_probe=!674c), Linux kernel 6.19 or newer\n",
       "driver kernel:7.2, xe.force_probe=674c, i915.force_probe=!674c: satisfies\n")]
fn intel_ids_follow_the_kernel_releases_read(
    #[case] args: &[&str],
    #[case] code: i32,
    #[case] line: &str,
    #[case] verdict: &str,
) {
    requirement(args)
        .assert()
        .code(code)
        .stdout(predicate::str::starts_with(line))
        .stdout(predicate::str::ends_with(verdict))
        .stdout(predicate::str::contains("not settled").not())
        .stdout(predicate::str::contains("unknown device").not());
}
