//! `gpuctl explain` on Ascend failures: the engines' and runtimes' real texts with an Ascend
//! node in them are answered in the plug-in's words (its nodes, its group, no NVIDIA or AMD
//! generator), a raw node is a missing node, and a stale CDI spec only when a spec names it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_example_ascend as _;
use gpuctl_testkit::Tree;
use predicates::prelude::*;

/// An Ascend server with NPUs 0 and 1: the shared nodes, the driver's version file.
fn ascend_host() -> Tree {
    let t = Tree::new();
    t.pci("0000:c1:00.0", 0x19e5, 0xd802, 0x120000);
    t.dev(&[
        "davinci_manager",
        "devmm_svm",
        "hisi_hdc",
        "davinci0",
        "davinci1",
    ]);
    t.file(
        "/usr/local/Ascend/driver/version.info",
        "Version=24.1.rc2\n",
    );
    t
}

/// A spec an Ascend site wrote for NPUs 0 and 3, though this host has no NPU 3 (any more).
const STALE_SPEC: &str = "cdiVersion: \"0.5.0\"\nkind: \"huawei.com/Ascend910\"\ndevices:\n  - name: \"0\"\n    containerEdits:\n      deviceNodes:\n        - path: \"/dev/davinci0\"\n  - name: \"3\"\n    containerEdits:\n      deviceNodes:\n        - path: \"/dev/davinci3\"\n";

fn explain(t: &Tree, text: &str) -> assert_cmd::assert::Assert {
    cargo_bin_cmd!("gpuctl-ascend")
        .env_clear()
        .arg("--root")
        .arg(t.root())
        .arg("explain")
        .write_stdin(text)
        .assert()
}

/// podman's own stat of a `--device` path (podman 4.3.1 here prints it the same for
/// `--device /dev/davinci3`).
// https://github.com/podman-container-tools/podman/issues/25737 ("Error: stat /dev/bsg/1: no
// such file or directory" for a missing --device node)
const PODMAN_RAW: &str = "Error: stat /dev/davinci3: no such file or directory\n";
// https://github.com/dstackai/dstack/issues/2787 (docker's wording, for /dev/tenstorrent/4)
const DOCKER_RAW: &str = "docker: Error response from daemon: error gathering device information while adding custom device \"/dev/davinci3\": no such file or directory.\n";
// https://github.com/winboat-org/winboat/pull/533 (crun's wording, for /dev/bus/usb/001/004)
const CRUN: &str = "Error: unable to start container \"64f6f99244bd\": crun: cannot stat `/dev/davinci3`: No such file or directory: OCI runtime attempted to invoke a command that was not found\n";
// https://github.com/NVIDIA/nvidia-container-toolkit/issues/885 (podman's CDI wording, for
// /dev/dri/renderD129)
const CDI_STAT: &str = "Error: setting up CDI devices: failed to inject devices: failed to stat CDI host device \"/dev/davinci3\": no such file or directory\n";

#[test]
fn a_raw_node_the_host_lacks_is_a_missing_ascend_node_in_the_plug_in_s_words() {
    let t = ascend_host();
    for text in [PODMAN_RAW, DOCKER_RAW, CRUN] {
        explain(&t, text)
            .code(0)
            // The family is Ascend's: its header calls the devices NPUs.
            .stdout(predicate::str::starts_with("NPU misconfiguration, in these lines (of 1):\n"))
            .stdout(predicate::str::contains("Diagnosis (ascend-node-missing): one of the Ascend device nodes the container is given (/dev/davinciN, /dev/davinci_manager, /dev/devmm_svm, /dev/hisi_hdc) does not exist on this host"))
            .stdout(predicate::str::contains("Hint: list the host's nodes ('ls -l /dev/davinci*') and pass those that exist, as 'gpuctl args ascend' prints them for\nthis host ('podman run $(gpuctl args ascend) ...'); with none, load the Ascend driver first.\n"))
            // The plug-in's own driver check is among those that find the cause.
            .stdout(predicate::str::contains("ok       ascend-driver"))
            .stdout(predicate::str::contains("cdi-stale-spec").not());
    }
}

#[test]
fn a_runtime_s_stat_is_a_stale_spec_only_when_a_spec_names_the_node() {
    let t = ascend_host();
    t.file("/etc/cdi/ascend.yaml", STALE_SPEC);
    explain(&t, CRUN)
        .code(0)
        // Core's family, in the words of every linked vendor.
        .stdout(predicate::str::starts_with("GPU or NPU misconfiguration, in these lines"))
        .stdout(predicate::str::contains("Diagnosis (cdi-stale-spec): "))
        .stdout(predicate::str::contains(
            "Here /etc/cdi/ascend.yaml names /dev/davinci3, which this host lacks.\n",
        ))
        .stdout(predicate::str::contains("problem  cdi-stale          /etc/cdi/ascend.yaml"))
        .stdout(predicate::str::contains(
            "Hint: the CDI spec /etc/cdi/ascend.yaml is stale: it names /dev/davinci3, which this host lacks.\ngpuctl knows no CDI generator for Ascend NPUs: rewrite it after every driver upgrade\nwith the tool that wrote it;\nthen run 'gpuctl doctor' to confirm every node and file it names exists.\n",
        ));
    // podman's own stat is of a --device path, whatever the specs say.
    explain(&t, PODMAN_RAW)
        .code(0)
        .stdout(predicate::str::contains("Diagnosis (ascend-node-missing)"));
}

#[test]
fn cdi_failures_of_ascend_name_no_other_vendor_s_generator() {
    let t = ascend_host();
    explain(&t, CDI_STAT)
        .code(0)
        .stdout(predicate::str::contains("Diagnosis (cdi-stale-spec)"))
        .stdout(predicate::str::contains(
            "Hint: the CDI spec is stale.\ngpuctl knows no CDI generator for Ascend NPUs",
        ))
        .stdout(predicate::str::contains("nvidia-ctk").not())
        .stdout(predicate::str::contains("amd-ctk").not());
    explain(&t, "Error: setting up CDI devices: unresolvable CDI devices huawei.com/Ascend910=3\n")
        .code(0)
        .stdout(predicate::str::contains("Hint: GPU CDI configuration appears to be missing or broken.\ngpuctl knows no CDI generator for Ascend NPUs: a spec declaring\nhuawei.com/Ascend910 or huawei.com/Ascend310P comes from the vendor's tools or is written by hand;\nwithout a valid one, 'podman run $(gpuctl args ascend) ...' passes the raw device nodes instead.\nSee: https://podman-desktop.io/docs/podman/gpu\n"))
        .stdout(predicate::str::contains("nvidia-ctk").not());
}

#[test]
fn a_node_the_user_may_not_open_names_the_plug_in_s_group() {
    let t = ascend_host();
    // https://github.com/containers/podman/issues/25897 (busybox cat on /dev/dri/renderD128)
    explain(&t, "cat: can't open '/dev/davinci0': Permission denied\n")
        .code(0)
        .stdout(predicate::str::contains("Diagnosis (ascend-node-denied)"))
        .stdout(predicate::str::contains(
            "Hint: add yourself to the nodes' group (HwHiAiUser): 'sudo usermod -aG HwHiAiUser $USER',\nlog in again, and run podman with '--group-add keep-groups' under crun.\n",
        ))
        .stdout(predicate::str::contains("render or video").not());
}

#[test]
fn another_device_s_missing_node_is_not_claimed() {
    let t = ascend_host();
    for text in [
        // https://github.com/podman-container-tools/podman/issues/25737
        "Error: stat /dev/bsg/1: no such file or directory\n",
        // https://github.com/dockur/windows/issues/1150
        "Error response from daemon: error gathering device information while adding custom device \"/dev/kvm\": no such file or directory\n",
    ] {
        explain(&t, text)
            .code(1)
            .stdout(predicate::str::starts_with("No GPU misconfiguration found"));
    }
}
