//! Item 1: on a CDI tier `vendor:NAME` selects any device the vendor's spec declares, in its
//! own case, and what an error suggests works when typed back.

use gpuctl_testkit::Tree;
use rstest::rstest;

use super::*;

const ARC: &str = "0000-08-00-0-0x56a5";
const UUID: &str = "GPU-e008b0f5-204c-dedb-faeb-a6fac57e9a42";

/// The selector an error suggests: the quoted `'vendor:...'` after "select one as".
fn suggestion(stderr: &str) -> String {
    let after = stderr
        .split("select one as ")
        .nth(1)
        .unwrap_or_else(|| panic!("no suggestion in {stderr:?}"));
    let quoted = after.split('\'').nth(1).unwrap();
    let example = after.split("for example '").nth(1);
    match example {
        Some(e) if quoted.ends_with(":NAME") => e.split('\'').next().unwrap().to_string(),
        _ => quoted.to_string(),
    }
}

#[test]
fn one_intel_gpu_on_a_cdi_host_is_selected_by_the_name_intel_s_generator_writes() {
    let root = host("intel-arc-cdi");
    let (code, out, err) = run(&root, &["args", &format!("intel:{ARC}")]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        format!("--device intel.com/gpu={ARC} --group-add keep-groups\n")
    );
    let (code, out, _) = run(
        &root,
        &["args", "--format", "quadlet", &format!("INTEL:{ARC}")],
    );
    assert_eq!(code, 0);
    assert!(
        out.contains(&format!("AddDevice=intel.com/gpu={ARC}\n")),
        "{out}"
    );
}

#[test]
fn what_the_error_for_an_index_suggests_works() {
    let root = host("intel-arc-cdi");
    let (code, out, err) = run(&root, &["args", "intel:0"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        format!(
            "gpuctl: error: the selection asks for 'intel:0' but no valid CDI spec declares intel.com/gpu=0; the declared intel.com/gpu devices are: {ARC} — on the CDI tier 'intel:NAME' selects the device the spec names NAME, so select one as 'intel:{ARC}', or grant the whole vendor ('intel')\n"
        )
    );
    let (code, out, _) = run(&root, &["args", &suggestion(&err)]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with(&format!("--device intel.com/gpu={ARC} ")),
        "{out}"
    );
}

#[test]
fn an_nvidia_uuid_keeps_its_case_and_a_lowercased_one_is_pointed_at_the_declared_name() {
    let root = host("workstation");
    let (code, out, err) = run(&root, &["args", &format!("nvidia:{UUID}")]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        format!(
            "--device nvidia.com/gpu={UUID} -e NVIDIA_VISIBLE_DEVICES={UUID} -e NVIDIA_DRIVER_CAPABILITIES=all\n"
        )
    );
    let lower = UUID.to_lowercase();
    let (code, _, err) = run(&root, &["args", &format!("nvidia:{lower}")]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!(
            "(CDI names are case-sensitive: 'nvidia:{UUID}' is declared)"
        )),
        "{err}"
    );
    let (code, _, _) = run(&root, &["args", &suggestion(&err)]);
    assert_eq!(code, 0, "the suggested selector works");
}

/// A spec of UUID names only, as `nvidia-ctk cdi generate --device-name-strategy=uuid` writes
/// it: two GPUs picked by name, an index and a name mixed, a MIG-style name with `:`.
#[rstest]
#[case(&["nvidia:GPU-bbbb,nvidia:GPU-aaaa"], "--device nvidia.com/gpu=GPU-aaaa --device nvidia.com/gpu=GPU-bbbb -e NVIDIA_VISIBLE_DEVICES=GPU-aaaa,GPU-bbbb")]
#[case(&["nvidia:MIG-GPU-aaaa/1/0"], "")]
#[case(&["Nvidia:GPU-aaaa:1", "nvidia:00"], "--device nvidia.com/gpu=0 --device nvidia.com/gpu=GPU-aaaa:1 -e NVIDIA_VISIBLE_DEVICES=0,GPU-aaaa:1")]
fn uuid_named_specs(#[case] selectors: &[&str], #[case] want: &str) {
    let t = Tree::new();
    t.cdi_spec(
        "/etc/cdi/nvidia.yaml",
        "nvidia.com/gpu",
        &["0", "GPU-aaaa", "GPU-bbbb", "GPU-aaaa:1"],
    );
    let mut args = vec!["args"];
    args.extend_from_slice(selectors);
    let (code, out, err) = run(t.root(), &args);
    if want.is_empty() {
        assert_eq!(code, 2, "{err}");
        assert!(
            err.starts_with("gpuctl: error: bad device index in 'nvidia:MIG-GPU-aaaa/1/0'"),
            "{err}"
        );
    } else {
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(out, format!("{want} -e NVIDIA_DRIVER_CAPABILITIES=all\n"));
    }
}

/// Without a CDI spec a name is a bad index, as in the reference tool, and says why.
#[rstest]
#[case::amd_raw("amd-mi300x", "amd:GPU-x", "raw")]
#[case::nvidia_hook("nvidia-hook-only", "nvidia:GPU-x", "hook")]
#[case::intel_raw("intel-laptop", "intel:card0", "raw")]
fn a_name_where_devices_are_numbered_is_a_bad_index(
    #[case] name: &str,
    #[case] selector: &str,
    #[case] tier: &str,
) {
    let (code, out, err) = run(&host(name), &["args", selector]);
    assert_eq!((code, out.as_str()), (2, ""));
    let vendor = selector.split(':').next().unwrap();
    assert!(
        err.starts_with(&format!("gpuctl: error: bad device index in '{selector}'; expected '{vendor}' or '{vendor}:<non-negative integer>' — this host serves {vendor} on the {tier} tier")),
        "{err}"
    );
}

#[test]
fn run_takes_the_same_names() {
    let root = host("intel-arc-cdi");
    let d = tempfile::tempdir().unwrap();
    let out = gpuctl(&root)
        .env("PATH", d.path())
        .args([
            "run",
            "--gpus",
            &format!("intel:{ARC}"),
            "--dry-run",
            "--",
            "img",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("podman run --device intel.com/gpu={ARC} --group-add keep-groups img\n")
    );
}
