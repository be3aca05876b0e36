//! Core's emitter rules on their emitters' own wordings (the format strings named in
//! rules.rs), with `nvidia` as a vendor's name: the object is found by the line's shape, and an
//! object that names no GPU is not read.

use super::*;
use rstest::rstest;

/// Core's rules, with `nvidia` a vendor's name (a GPU's token) as a registry would give it.
fn first(text: &str) -> Option<Reading> {
    let rules: Vec<&EmitterRule> = core_rules().collect();
    primary(&read(text, &rules, &["nvidia", "gpu"])).cloned()
}

#[rstest]
#[case(
    "docker: Error response from daemon: unknown or invalid runtime name: nvidia.",
    "docker",
    Operation::FindRuntime,
    Some("nvidia")
)]
#[case(
    r#"failed to get sandbox runtime: no runtime for "nvidia" is configured"#,
    "containerd",
    Operation::FindRuntime,
    Some("nvidia")
)]
#[case(
    "Failed to get sandbox runtime: no runtime for nvidia is configured",
    "containerd",
    Operation::FindRuntime,
    Some("nvidia")
)]
#[case(
    "failed to find runtime handler nvidia from runtime list map[crun:0xc runc:0xc]",
    "cri-o",
    Operation::FindRuntime,
    Some("nvidia")
)]
#[case(
    r#"pods "x" is forbidden: pod rejected: RuntimeClass "nvidia" not found"#,
    "kubelet",
    Operation::FindRuntime,
    Some("nvidia")
)]
#[case(
    "0/3 nodes are available: 3 Insufficient gpu.intel.com/i915.",
    "kube-scheduler",
    Operation::Allocate,
    Some("gpu.intel.com/i915")
)]
#[case(
    "Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected",
    "kubelet",
    Operation::Allocate,
    Some("nvidia.com/gpu")
)]
#[case(
    "libva error: /usr/lib/x86_64-linux-gnu/dri/iHD_drv_video.so init failed",
    "vaapi",
    Operation::Initialise,
    Some("/usr/lib/x86_64-linux-gnu/dri/iHD_drv_video.so")
)]
#[case(
    "vkCreateInstance failed with ERROR_INCOMPATIBLE_DRIVER",
    "vulkan",
    Operation::LoadLibrary,
    None
)]
#[case(
    "MESA-LOADER: failed to open iris: /usr/lib/dri/iris_dri.so: cannot open shared object file",
    "mesa-loader",
    Operation::LoadLibrary,
    Some("iris")
)]
#[case("clGetPlatformIDs(-1001)", "opencl-icd", Operation::LoadLibrary, None)]
fn core_emitters_read_their_own_wording(
    #[case] text: &str,
    #[case] emitter: &str,
    #[case] operation: Operation,
    #[case] object: Option<&str>,
) {
    let r = first(text);
    assert_eq!(r.as_ref().map(|r| r.emitter), Some(emitter), "{text}");
    assert_eq!(r.as_ref().map(|r| r.operation), Some(operation), "{text}");
    assert_eq!(
        r.as_ref().and_then(|r| r.object.as_deref()),
        object,
        "{text}"
    );
}

#[rstest]
#[case("docker: Error response from daemon: unknown or invalid runtime name: runsc.")]
#[case("0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory.")]
#[case("0/1 nodes are available: 1 Insufficient example.com/foo.")]
fn an_object_that_names_no_gpu_is_not_read(#[case] text: &str) {
    assert_eq!(first(text), None, "{text}");
}

#[test]
fn the_reason_wins_over_its_wrapper_and_the_later_line_over_the_earlier() {
    let text = "error running hook #0: error running hook: exit status 1\nlibva error: /x/iHD_drv_video.so init failed";
    let r = first(text);
    assert_eq!(r.as_ref().map(|r| (r.emitter, r.line)), Some(("vaapi", 2)));
    let s = r.map(|r| r.sentence()).unwrap_or_default();
    assert!(
        s.starts_with("VA-API (libva) could not initialise /x/iHD_drv_video.so: "),
        "{s}"
    );
}

#[test]
fn the_host_s_library_wins_over_the_image_s_on_the_same_rank() {
    let stack = Reading {
        line: 1,
        emitter: "dynamic-loader",
        operation: Operation::LoadLibrary,
        object: Some("libcuda.so.1".to_string()),
        cause: String::new(),
        check: String::new(),
        owner: Owner::Stack,
        rank: RANK_REASON,
        who: "the dynamic loader",
        host_path: None,
        host_mount: None,
    };
    let image = Reading {
        line: 2,
        object: Some("libcudnn.so.8".to_string()),
        owner: Owner::Image,
        ..stack.clone()
    };
    let both = [stack.clone(), image];
    assert_eq!(primary(&both), Some(&stack));
}
