//! Issue 25 item 14: explain on the hook's "unsatisfied condition: cuda>=13.0" compares the
//! text's CUDA with the CUDA this host's loaded driver runs: on a 535 host (CUDA 12.2) that is
//! the cause, on a 580 host (CUDA 13.0) it is not, whatever else doctor would say of the driver.

use super::{gpuctl, host};

const FAILURE: &str = "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=13.0, please update your driver to a newer version, or use an earlier cuda container\n";

fn explain(root: &std::path::Path, text: &str) -> String {
    let out = gpuctl(root)
        .arg("explain")
        .write_stdin(text)
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn a_535_driver_is_the_cause_of_a_cuda_13_failure() {
    // nvidia-hook-only loads 535.183.01
    let text = explain(&host("nvidia-hook-only"), FAILURE);
    assert!(
        text.contains("  problem  nvidia-image       the failure's cuda>=13.0 on the loaded NVIDIA driver\n           - loaded driver 535.183.01, which runs CUDA 12.2, which does not meet cuda>=13.0\n           - to run such an image here: install a driver of at least 580.65.06, or use an image built for CUDA 12.2 or older\n"),
        "{text}"
    );
    assert!(
        text.contains("This host shows the cause (see the problem above)."),
        "{text}"
    );
}

#[test]
fn a_580_driver_is_not_the_cause_and_nothing_unrelated_is_pointed_at() {
    // dgx-b200 loads 580.95.05; the driver check is not this family's evidence any more
    let text = explain(&host("dgx-b200"), FAILURE);
    assert!(
        text.contains("  ok       nvidia-image       the failure's cuda>=13.0 on the loaded NVIDIA driver\n           - loaded driver 580.95.05, which runs CUDA 13.0, which meets cuda>=13.0"),
        "{text}"
    );
    assert!(
        text.contains("This host does not show the cause now"),
        "{text}"
    );
    assert!(!text.contains("nvidia-driver"), "{text}");
    // the older wording, with spaces, reads the same
    let old = explain(
        &host("nvidia-hook-only"),
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda >= 12.4\n",
    );
    assert!(old.contains("which does not meet cuda>=12.4"), "{old}");
}

#[test]
fn a_host_without_a_loaded_driver_cannot_tell() {
    let dir = tempfile::tempdir().unwrap();
    let text = explain(dir.path(), FAILURE);
    assert!(
        text.contains("skipped  nvidia-image")
            && text.contains("names no loaded NVIDIA driver to compare with"),
        "{text}"
    );
    assert!(
        text.contains("These checks could not be run here"),
        "{text}"
    );
}
