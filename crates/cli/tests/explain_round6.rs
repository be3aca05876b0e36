//! Issue 31, round 6: what held-out set G (corpus 211-250, read once it was scored) showed
//! explain reading wrongly or not at all, fixed as classes: frameworks' own lines about the
//! GPU stack, a render node's listing with a group the container lacks, two families' second
//! readings, and texts whose failure is a registry's or a host limit's. Each row names its
//! source; the look-alikes share the rules' words and are not the GPU stack's.

use gpuctl_core::commands::explain::{explain, not_claimed_because};
use gpuctl_core::plugin::Registry;
use gpuctl_testkit::Tree;
use rstest::rstest;

use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

#[path = "support/explain.rs"]
mod support;
use support::{assert_read_by_emitter, explain_on, read};

/// The diagnosis explain gives, in lower case.
fn diagnosis(text: &str) -> String {
    explain(text, Registry::discovered(), None)
        .map(|e| e.diagnosis.to_lowercase())
        .unwrap_or_default()
}

#[rstest]
// pytorch/pytorch torch/utils/cpp_extension.py (Thinklab-SJTU/ThinkMatch#51)
#[case("cuda", "find-device", "not given the gpu", "No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'")]
// PyTorch's XPU runtime, raised by torch._C._xpu_init (open-edge-platform/geti-instant-learn#583)
#[case("sycl", "find-device", "render node", "  File \"/app/.venv/lib/python3.12/site-packages/torch/xpu/__init__.py\", line 138, in _lazy_init\n    torch._C._xpu_init()\nRuntimeError: No XPU devices are available.")]
// coreutils ls -l inside the container (linuxserver/docker-plex#211): a bare GID
#[case("ls", "open", "gid 109", "$ docker exec plex ls -l /dev/dri\ncrw-rw---- 1 root video 226,   0 Nov 19 22:28 card0\ncrw-rw---- 1 root   109 226, 128 Nov 19 22:28 renderD128\nCodecs: hardware transcoding: opening hw device failed")]
// the same in a Proxmox LXC (tteck/Proxmox#2523): the GID names another group there
#[case("ls", "open", "ssl-cert", "ls -l /dev/dri\ncrw-rw---- 1 root video    226,   0 Feb 21 10:11 card0\ncrw-rw---- 1 root ssl-cert 226, 128 Feb 21 10:11 renderD128")]
// FFmpeg libavcodec/nvenc.c nvenc_load_libraries: the requirement line after a library it
// could not load is the library's absence (styler00dollar/VSGAN-tensorrt-docker#42), not an old driver
#[case("dynamic-loader", "load-library", "", "[hevc_nvenc @ 0x55ca461fa380] Cannot load libnvidia-encode.so.1\n[hevc_nvenc @ 0x55ca461fa380] The minimum required Nvidia driver for nvenc is (unknown) or newer")]
#[rustfmt::skip]
fn read_by_emitter_operation_and_cause(
    #[case] emitter: &str,
    #[case] operation: &str,
    #[case] word: &str,
    #[case] text: &str,
) {
    assert_read_by_emitter(emitter, operation, word, text);
}

/// Families that took a second reading or a copied wording (the family, a word of its
/// diagnosis, the line).
#[rstest]
// CUDA's runtime reports a driver it cannot load as an insufficient one (imagegenius/docker-immich#349)
#[case("nvidia-cuda-requirement", "not given the driver", "CUDA failure 35: CUDA driver version is insufficient for CUDA runtime version")]
// libnvidia-container before 1.9.0 does not know the RTX brands (NVIDIA/nvidia-container-toolkit#24)
#[case("nvidia-driver-requirement", "1.9.0", "nvidia-container-cli: requirement error: unsatisfied condition: brand = quadrortx: unknown")]
// libva's driver init as a user copies it (blakeblackshear/frigate#3655)
#[case("intel-vaapi-init", "libva_driver_name", "libva: /usr/lib/x86_64-linux-gnu/dri/i965_drv_video.so init failed")]
// docker's missing /dev/kfd as a user copies it, and WSL2's (ROCm/legacy-rocm-build#4062)
#[case("amd-kfd-missing", "wsl2", "ERROR:  /dev/kfd no such file or directory")]
#[rustfmt::skip]
fn a_family_keeps_the_text_with_its_second_reading(
    #[case] family: &str,
    #[case] word: &str,
    #[case] text: &str,
) {
    assert_eq!(read(text).0, Some(family), "{text}");
    let d = diagnosis(text);
    assert!(d.contains(word), "{word} not in {d}");
}

/// rocm-smi's empty sensors are said beside HSA's family (ROCm/TheRock#642: a GPU in a bad
/// state), and on their own are no failure.
#[test]
fn empty_sensors_are_said_beside_the_family() {
    let text = "rocminfo\nCall returned HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.\nrocm-smi\nGPU[1]          : get_power_avg, Unexpected data received\n";
    let e = explain(text, Registry::discovered(), None).expect("claimed");
    assert_eq!(e.family.as_str(), "amd-hsa-out-of-resources");
    assert!(
        e.readings
            .iter()
            .any(|r| r.emitter == "rocm-smi" && r.cause.contains("not answering")),
        "{:?}",
        e.readings
    );
    assert_eq!(read("Unexpected data received").0, None);
}

#[rstest]
// a removed nvidia/cuda tag: the registry's answer (NVIDIA/nvidia-docker#1735)
#[case("$ docker run --rm --gpus all nvidia/cuda:11.0-base-ubuntu20.04 nvidia-smi\nUnable to find image 'nvidia/cuda:11.0-base-ubuntu20.04' locally\ndocker: Error response from daemon: manifest for nvidia/cuda:11.0-base-ubuntu20.04 not found: manifest unknown: manifest unknown.")]
#[case("Error: initializing source docker://nvidia/cuda:12.9-base: reading manifest 12.9-base in docker.io/nvidia/cuda: manifest unknown")]
#[case("docker: Error response from daemon: pull access denied for rocm/pytorch-private, repository does not exist or may require 'docker login'.")]
// (A GPU plug-in meeting the host's inotify limit, intel/intel-device-plugins-for-kubernetes
// #2075, was here until issue 31's round 8: the plug-in stops serving its GPU resource, which is
// the GPU's way into pods, and the device plug-in rule now names the node's inotify limit;
// explain_round8.rs.)
// a sound node with a bare GID
#[case("crw-rw---- 1 root 29 116, 2 Nov 19 22:28 controlC0\nfailed to open audio device")]
#[rustfmt::skip]
fn look_alikes_stay_unclaimed(#[case] text: &str) {
    let e = explain(text, Registry::discovered(), None);
    assert!(e.is_none(), "{text}: {:?}", e.map(|e| e.diagnosis));
}

/// A render node others may open, or listed with its own group, says nothing of its group: the
/// text is answered as before (a component beside a failure), not by the listing.
#[rstest]
#[case("crw-rw-rw- 1 root 109 226, 128 Nov 19 22:28 renderD128\nopening hw device failed")]
#[case("crw-rw---- 1 root render 226, 128 Nov 19 22:28 renderD128\nopening hw device failed")]
#[case(
    "crw-rw---- 1 root video 226, 0 Nov 19 22:28 card0\ncrw-rw---- 1 root 109 226, 0 Nov 19 22:28 card1\nfailed"
)]
fn a_listing_with_the_node_s_own_group_is_not_the_cause(#[case] text: &str) {
    assert_ne!(read(text).1, Some("ls"), "{text}");
}

/// JAX's CUDA plug-in and jaxlib of two releases is the image's install (jax-ml/jax#20722):
/// said, not claimed; JAX naming another CUDA status keeps its family.
#[test]
fn jax_s_own_build_is_the_image_s() {
    let text = "CUDA backend failed to initialize: jaxlib/cuda/versions_helpers.cc:90: operation gpuDeviceGetAttribute( &major, GPU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) failed: CUDA_ERROR_NOT_INITIALIZED (Set TF_CPP_MIN_LOG_LEVEL=0 and rerun for more info.)";
    assert!(explain(text, Registry::discovered(), None).is_none());
    let why = not_claimed_because(text, Registry::discovered()).unwrap_or_default();
    assert!(why.contains("JAX"), "{why}");
    let other = "CUDA backend failed to initialize: jaxlib/cuda/versions_helpers.cc:81: operation cuInit(0) failed: CUDA_ERROR_NO_DEVICE";
    assert_eq!(read(other).0, Some("nvidia-cuda-no-device"));
}

/// The listing's reading with a host: the node is named as the host path it stands for.
#[test]
fn the_listing_names_the_node_on_a_host() {
    let t = Tree::new();
    t.dir("/dev/dri");
    let out = explain_on(
        t.root(),
        "crw-rw---- 1 root 109 226, 128 Nov 19 22:28 renderD128\nopening hw device failed\n",
    );
    assert!(out.contains("/dev/dri/renderD128"), "{out}");
    assert!(out.contains("--group-add"), "{out}");
}
