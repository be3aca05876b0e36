//! Item 10: docker's numeric groups on the CDI tier come from the nodes the granted devices'
//! spec creates (its `gid` and `fileMode`, else the host node's under `--root`); item 14: the
//! NVIDIA CDI tier keeps `-e NVIDIA_VISIBLE_DEVICES` only behind a spec that sets it to `void`.
//! Real generator output from the bundled hosts, and specs built here.

use gpuctl_testkit::{Tree, other_gid};
use rstest::rstest;

use super::{host, run};

/// amd-ctk writes every node with `fileMode: 432` (0660) and the host node's gid (44 for the
/// card nodes, 110 for render and kfd on the host it was generated on).
#[rstest]
#[case::one_gpu(
    "amd:1",
    "--device amd.com/gpu=1 --group-add 44 --group-add 110\n",
    "(/dev/dri/card0: 44, /dev/dri/renderD128: 110, /dev/kfd: 110)"
)]
#[case::all(
    "amd",
    "--device amd.com/gpu=all --group-add 44 --group-add 110\n",
    "(/dev/dri/card1: 44, /dev/dri/renderD129: 110, /dev/dri/card0: 44, /dev/dri/renderD128: 110, /dev/kfd: 110)"
)]
fn amd_ctk_s_gids_become_docker_groups(#[case] sel: &str, #[case] line: &str, #[case] nodes: &str) {
    let (code, out, err) = run(&host("amd-ctk-cdi"), &["args", "--format", "docker", sel]);
    assert_eq!((code, out.as_str()), (0, line), "{err}");
    assert!(
        err.contains(&format!(
            "the container gets the groups that own the granted nodes {nodes}"
        )),
        "{err}"
    );
    assert!(!err.contains("does not know which nodes"), "{err}");
}

/// Intel's generator writes no gid and no mode: the host nodes decide. On the bundled tree they
/// are plain files of mode 0644, which no group opens further, and gpuctl says so.
#[test]
fn intel_s_generator_leaves_the_group_to_the_host_node() {
    let root = host("intel-arc-cdi");
    let (code, out, err) = run(
        &root,
        &["args", "--format", "docker", "intel:0000-08-00-0-0x56a5"],
    );
    assert_eq!(
        (code, out.as_str()),
        (0, "--device intel.com/gpu=0000-08-00-0-0x56a5\n"),
        "{err}"
    );
    assert!(err.contains("/dev/dri/card0 (mode 0644), /dev/dri/renderD128 (mode 0644) give(s) their group no access beyond everyone's"), "{err}");
    assert!(!err.contains("does not know which nodes"), "{err}");
}

/// The same spec on a tree whose nodes have udev's mode 0660 and a group: that group.
#[test]
fn without_a_gid_in_the_spec_the_host_node_s_group_is_used() {
    let Some(gid) = other_gid() else {
        eprintln!("skipped: the user's only group is 0");
        return;
    };
    let t = Tree::new();
    t.file(
        "/etc/cdi/intel.com-gpu.yaml",
        include_str!("../../../../tests/hosts/intel-arc-cdi/etc/cdi/intel.com-gpu.yaml"),
    );
    t.dev(&["dri/card0", "dri/renderD128"]);
    t.owned("/dev/dri/card0", 0o660, gid)
        .owned("/dev/dri/renderD128", 0o660, gid);
    let (code, out, err) = run(t.root(), &["args", "--format", "docker", "intel"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        format!("--device intel.com/gpu=0000-08-00-0-0x56a5 --group-add {gid}\n")
    );
    assert!(
        err.contains(&format!(
            "(/dev/dri/card0: {gid}, /dev/dri/renderD128: {gid})"
        )),
        "{err}"
    );
}

fn spec_with_nodes(nodes: &str) -> String {
    format!(
        "cdiVersion: 0.6.0\nkind: vendor.com/gpu\ndevices:\n- name: \"0\"\n  containerEdits:\n    deviceNodes:\n{nodes}"
    )
}

/// A spec's own gid and mode win over the host node's; a node that opens to everyone, or whose
/// group is 0, gets no group; a node the spec gives no gid and the host lacks keeps the
/// sentence that gpuctl does not know the group.
#[rstest]
#[case::spec_gid_over_host(
    "    - {path: /dev/dri/renderD128, type: c, major: 226, minor: 128, fileMode: 8624, gid: 4321}\n",
    true,
    "--device amd.com/gpu=0 --group-add 4321\n",
    "(/dev/dri/renderD128: 4321)"
)]
#[case::open_to_all(
    "    - {path: /dev/dri/renderD128, fileMode: 438, gid: 4321}\n",
    false,
    "--device amd.com/gpu=0\n",
    ""
)]
#[case::root_group(
    "    - {path: /dev/dri/renderD128, fileMode: 432, gid: 0}\n",
    false,
    "--device amd.com/gpu=0\n",
    "/dev/dri/renderD128 belong(s) to group 0 (root) and gpuctl never adds '--group-add 0'"
)]
#[case::host_path_and_no_gid_absent_on_host(
    "    - {path: /dev/dri/renderD128, hostPath: /dev/dri/renderD200, fileMode: 432}\n",
    false,
    "--device amd.com/gpu=0\n",
    "docker has no keep-groups and gpuctl does not know which nodes the amd CDI devices create"
)]
fn a_built_spec_s_gid_and_mode(
    #[case] nodes: &str,
    #[case] host_node: bool,
    #[case] line: &str,
    #[case] said: &str,
) {
    let t = Tree::new();
    t.file(
        "/etc/cdi/amd.yaml",
        &spec_with_nodes(nodes).replace("vendor.com", "amd.com"),
    );
    if host_node {
        // The host's node has another group: the spec's gid is what the runtime gives it.
        t.dev(&["dri/renderD128"]);
        t.owned("/dev/dri/renderD128", 0o660, other_gid().unwrap_or(0));
    }
    let (code, out, err) = run(t.root(), &["args", "--format", "docker", "amd"]);
    assert_eq!((code, out.as_str()), (0, line), "{err}");
    assert!(err.contains(said), "{err}");
    if !said.contains("does not know") {
        assert!(!err.contains("does not know"), "{err}");
    }
}

/// nvidia-ctk's spec sets `NVIDIA_VISIBLE_DEVICES=void` (workstation): the `-e` stays, as podman
/// appends the spec's `void` after it. A spec without it (before toolkit 1.15, or written by
/// hand): the `-e` would be the value the legacy hook reads, so it is left out.
#[rstest]
#[case::void(
    true,
    "--device nvidia.com/gpu=0 -e NVIDIA_VISIBLE_DEVICES=0 -e NVIDIA_DRIVER_CAPABILITIES=all\n"
)]
#[case::no_void(false, "--device nvidia.com/gpu=0 -e NVIDIA_DRIVER_CAPABILITIES=all\n")]
fn nvidia_visible_devices_only_behind_a_void_spec(#[case] void: bool, #[case] want: &str) {
    let real = include_str!("../../../../tests/hosts/workstation/etc/cdi/nvidia.yaml");
    let text = if void {
        real.to_string()
    } else {
        real.replace(
            "  - NVIDIA_VISIBLE_DEVICES=void\n",
            "  - NVIDIA_CTK_SAMPLE=1\n",
        )
    };
    assert_eq!(text.contains("NVIDIA_VISIBLE_DEVICES=void"), void);
    let t = Tree::new();
    t.file("/etc/cdi/nvidia.yaml", &text);
    let (code, out, err) = run(t.root(), &["args", "nvidia:0"]);
    assert_eq!((code, out.as_str()), (0, want), "{err}");
}

/// A device's own `env` after the spec's decides: a device that sets another value after the
/// spec's `void` brings the hook back, so the `-e` is left out for the whole grant.
#[test]
fn a_device_env_after_the_spec_s_void_decides() {
    let t = Tree::new();
    t.file(
        "/etc/cdi/nvidia.yaml",
        "cdiVersion: 0.5.0\nkind: nvidia.com/gpu\ncontainerEdits:\n  env: [NVIDIA_VISIBLE_DEVICES=void]\ndevices:\n- name: \"0\"\n  containerEdits:\n    deviceNodes: [{path: /dev/nvidia0}]\n- name: \"1\"\n  containerEdits:\n    env: [NVIDIA_VISIBLE_DEVICES=1]\n    deviceNodes: [{path: /dev/nvidia1}]\n",
    );
    let (_, zero, _) = run(t.root(), &["args", "nvidia:0"]);
    assert!(zero.contains("-e NVIDIA_VISIBLE_DEVICES=0 "), "{zero}");
    let (code, both, err) = run(t.root(), &["args", "nvidia:0,nvidia:1"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        both,
        "--device nvidia.com/gpu=0 --device nvidia.com/gpu=1 -e NVIDIA_DRIVER_CAPABILITIES=all\n"
    );
}
