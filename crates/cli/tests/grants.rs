//! Every grant is the device asked for, and every input is bounded (issue 11): one numbering
//! for NVIDIA GPUs, no whitespace smuggled into plain output, no impossible minors, no
//! `/dev/nvidia*` granted by its name alone, linear selectors, no FIFO that blocks, and
//! explain reading the end of podman's stderr. Each host is a tree built in the test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_testkit::Tree;
use predicates::prelude::*;

/// A command that hangs is a failure, not a stuck test run.
const HANG: Duration = Duration::from_secs(20);

fn gpuctl(root: &Path) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("gpuctl");
    cmd.env_clear().arg("--root").arg(root).timeout(HANG);
    cmd
}

/// A FIFO at `path` (std has no mkfifo; coreutils has).
fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

#[test]
fn a_fifo_given_as_site_table_is_refused_without_opening_it() {
    let t = Tree::new();
    let fifo = t.path("/site.yaml");
    mkfifo(&fifo);
    gpuctl(t.root())
        .args(["requirement", "--table"])
        .arg(&fifo)
        .arg("2330")
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "gpuctl: error: site table {} cannot be read (it is a FIFO (named pipe), not a regular file); pass --table a readable file\n",
            fifo.display()
        ));
}

#[test]
fn a_fifo_given_to_explain_is_refused_and_standard_input_still_works() {
    let t = Tree::new();
    let fifo = t.path("/podman-stderr.txt");
    mkfifo(&fifo);
    gpuctl(t.root())
        .arg("explain")
        .arg(&fifo)
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "gpuctl: error: cannot read {} (it is a FIFO (named pipe), not a regular file); pass a file holding podman's stderr, or pipe it on standard input\n",
            fifo.display()
        ));
    for args in [&["explain"][..], &["explain", "-"][..]] {
        gpuctl(t.root())
            .args(args)
            .write_stdin("Error: crun: executable file not found\n")
            .assert()
            .code(1)
            .stdout(predicate::str::starts_with("No GPU misconfiguration found"));
    }
}

/// What crun prints when the NVIDIA hook fails on rootless podman (the hint cites it).
const HOOK_ERROR: &str = "Error: OCI runtime error: crun: error executing hook /usr/bin/nvidia-container-runtime-hook (exit code: 1): nvidia-container-cli: container error: cgroup subsystem devices not found\n";

/// 17 MiB of a container's own chatter, then podman's error: the error is past the first
/// 16 MiB, where explain used to stop and report nothing.
fn long_log() -> String {
    let line = "container log line that has nothing to do with GPUs\n";
    let mut s = line.repeat(17 * 1024 * 1024 / line.len() + 1);
    s.push_str(HOOK_ERROR);
    s
}

#[test]
fn explain_reads_the_end_of_a_long_stderr_and_says_it_was_cut() {
    let t = Tree::new();
    t.file("/podman.err", &long_log());
    let warning =
        "is longer than 16 MiB: only its last 16 MiB were read, where podman prints its error\n";
    gpuctl(t.root())
        .arg("explain")
        .arg(t.path("/podman.err"))
        .assert()
        .code(0)
        .stdout(predicate::str::contains("no-cgroups = true"))
        .stderr(format!(
            "gpuctl: warning: {} {warning}",
            t.path("/podman.err").display()
        ));
    gpuctl(t.root())
        .arg("explain")
        .write_stdin(long_log())
        .assert()
        .code(0)
        .stdout(predicate::str::contains("no-cgroups = true"))
        .stderr(format!("gpuctl: warning: standard input {warning}"));
    gpuctl(t.root())
        .arg("explain")
        .write_stdin(HOOK_ERROR)
        .assert()
        .code(0)
        .stderr("");
}

#[test]
fn a_wrong_site_table_is_quoted_in_a_short_excerpt() {
    // /etc/passwd given as a site table: YAML reads all of it as one string.
    let t = Tree::new();
    let passwd: String = (0..200)
        .map(|i| format!("user{i}:x:{i}:{i}:User {i}:/home/user{i}:/bin/sh\n"))
        .collect();
    t.file("/passwd.yaml", &passwd);
    let out = gpuctl(t.root())
        .args(["requirement", "--table"])
        .arg(t.path("/passwd.yaml"))
        .arg("2330")
        .assert()
        .code(2)
        .stdout("")
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(out).unwrap();
    assert!(
        err.contains(
            "invalid type: string \"user0:x:0:0:User 0:/home/user0:/bin/sh user1:x:1:1:User 1:/h…\""
        ),
        "{err}"
    );
    assert!(!err.contains("user199"), "{err}");
    assert!(err.len() < 800, "{} bytes: {err}", err.len());
}

const NVIDIA: u16 = 0x10de;
const GPU_CLASS: u32 = 0x030200;

/// Binds the PCI function `addr` to `driver`, as the kernel links it.
fn bind(t: &Tree, addr: &str, driver: &str) {
    t.dir(&format!("/sys/bus/pci/drivers/{driver}"));
    t.link(
        &format!("/sys/devices/pci0000:00/{addr}/driver"),
        &format!("../../../bus/pci/drivers/{driver}"),
    );
}

/// Three NVIDIA GPUs; the middle one is bound to vfio-pci (passed to a virtual machine), so
/// the nvidia driver numbers only the other two (minors 0 and 1).
fn vfio_host() -> Tree {
    let t = Tree::new();
    t.nvidia_dev();
    for addr in ["0000:01:00.0", "0000:41:00.0", "0000:81:00.0"] {
        t.pci(addr, NVIDIA, 0x2330, GPU_CLASS);
    }
    bind(&t, "0000:01:00.0", "nvidia");
    bind(&t, "0000:41:00.0", "vfio-pci");
    bind(&t, "0000:81:00.0", "nvidia");
    t.nvidia_proc("0000:01:00.0", Some(0))
        .nvidia_proc("0000:81:00.0", Some(1));
    t
}

fn args_out(t: &Tree, selector: &str) -> (i32, String, String) {
    let out = gpuctl(t.root()).args(["args", selector]).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const SHARED: &str = "--device /dev/nvidia-uvm --device /dev/nvidiactl";
const ENV_TAIL: &str = "-e NVIDIA_DRIVER_CAPABILITIES=all";

#[test]
fn a_gpu_bound_to_vfio_keeps_its_index_and_is_never_granted_another_gpus_node() {
    let t = vfio_host();
    let (code, out, _) = args_out(&t, "nvidia:0");
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            format!("{SHARED} --device /dev/nvidia0 -e NVIDIA_VISIBLE_DEVICES=0 {ENV_TAIL}\n")
                .as_str()
        )
    );
    let (code, out, err) = args_out(&t, "nvidia:1");
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "gpuctl: error: the selection asks for nvidia:1, the GPU at 0000:41:00.0, but it is bound to vfio-pci, not to the nvidia driver, so it has no /dev/nvidia node — pick another index ('gpuctl detect' lists them), or bind the GPU to the nvidia driver\n"
    );
    let (code, out, _) = args_out(&t, "nvidia:2");
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            format!("{SHARED} --device /dev/nvidia1 -e NVIDIA_VISIBLE_DEVICES=2 {ENV_TAIL}\n")
                .as_str()
        )
    );
    // The whole vendor is every node the driver made, the VM's GPU has none.
    let (code, out, err) = args_out(&t, "nvidia");
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, format!("--device /dev/nvidia-uvm --device /dev/nvidia0 --device /dev/nvidia1 --device /dev/nvidiactl -e NVIDIA_VISIBLE_DEVICES=all {ENV_TAIL}\n").as_str(), "")
    );
}

#[test]
fn detect_shows_the_same_numbering_and_names_the_other_driver() {
    let t = vfio_host();
    let out = gpuctl(t.root())
        .args(["detect", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let devices = json["vendors"][0]["devices"].as_array().unwrap();
    let rows: Vec<(u64, &str, Option<&str>)> = devices
        .iter()
        .map(|d| {
            (
                d["index"].as_u64().unwrap(),
                d["pci_address"].as_str().unwrap(),
                d["node"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (0, "0000:01:00.0", Some("/dev/nvidia0")),
            (1, "0000:41:00.0", None),
            (2, "0000:81:00.0", Some("/dev/nvidia1")),
        ]
    );
    let warnings = json["warnings"].to_string();
    assert!(
        warnings.contains("nvidia:1 (0000:41:00.0): it is bound to vfio-pci, not to the nvidia driver, so it has no /dev/nvidia node; 'nvidia:1' cannot be granted on the raw tier"),
        "{warnings}"
    );
}

#[test]
fn an_unreadable_or_non_utf8_procfs_entry_refuses_every_index_instead_of_shifting() {
    // The information file is a directory: its minor cannot be read.
    let t = vfio_host();
    t.dir("/proc/driver/nvidia/gpus/0000:41:00.0/information");
    let (code, out, err) = args_out(&t, "nvidia:2");
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains("but 0000:41:00.0 under /proc/driver/nvidia/gpus exposes no readable 'Device Minor' — refusing a device map that could grant the wrong GPU."),
        "{err}"
    );
    // A name that is not UTF-8 cannot be put in PCI order: refused, named, escaped.
    let t = vfio_host();
    let odd = std::ffi::OsStr::from_bytes(b"0000:41:00.0\xff");
    let dir = t.path("/proc/driver/nvidia/gpus").join(odd);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("information"), "Device Minor: \t 2\n").unwrap();
    let (code, out, err) = args_out(&t, "nvidia:2");
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains("but \"0000:41:00.0\u{fffd}\" under /proc/driver/nvidia/gpus is not a PCI address, so it cannot be put in PCI order — refusing"),
        "{err}"
    );
}

/// Two GPUs both driven by nvidia, with the given procfs minors.
fn two_gpus(minors: [u32; 2]) -> Tree {
    let t = Tree::new();
    t.nvidia_dev();
    for (addr, minor) in ["0000:01:00.0", "0000:02:00.0"].into_iter().zip(minors) {
        t.pci(addr, NVIDIA, 0x2330, GPU_CLASS);
        bind(&t, addr, "nvidia");
        t.nvidia_proc(addr, Some(minor));
    }
    t
}

#[test]
fn two_entries_claiming_one_minor_are_refused() {
    let t = two_gpus([0, 0]);
    for selector in ["nvidia:0", "nvidia:1"] {
        let (code, out, err) = args_out(&t, selector);
        assert_eq!((code, out.as_str()), (1, ""));
        assert_eq!(
            err,
            "gpuctl: error: the selection asks for an nvidia device by index, but 0000:01:00.0 and 0000:02:00.0 under /proc/driver/nvidia/gpus give the same Device Minor 0, which the driver gives to one GPU only — refusing a device map that could grant the wrong GPU.  Grant the whole vendor ('nvidia') instead, or install the NVIDIA Container Toolkit and generate a CDI spec.\n"
        );
    }
}

#[test]
fn minors_no_nvidia_gpu_has_are_refused() {
    // NVIDIA's driver numbers GPUs 0..=247; 255 is nvidiactl (nv-chardev-numbers.h).
    for minor in [248, 255, u32::MAX] {
        let t = two_gpus([0, minor]);
        let (code, out, err) = args_out(&t, "nvidia:0");
        assert_eq!((code, out.as_str()), (1, ""), "minor {minor}");
        assert!(
            err.contains(&format!("but 0000:02:00.0 under /proc/driver/nvidia/gpus gives Device Minor {minor}, which no NVIDIA GPU has (the driver numbers GPUs 0 to 247; 254 is nvidia-modeset, 255 nvidiactl) — refusing")),
            "{err}"
        );
        let out = gpuctl(t.root())
            .args(["detect", "--format", "json"])
            .output()
            .unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["vendors"][0]["devices"][0]["node"], "/dev/nvidia0");
        assert!(json["vendors"][0]["devices"][1].get("node").is_none());
        assert!(json["warnings"].to_string().contains("nvidia:1 (0000:02:00.0): 0000:02:00.0 under /proc/driver/nvidia/gpus gives Device Minor"));
    }
    let ok = two_gpus([1, 247]);
    let (code, out, _) = args_out(&ok, "nvidia:1");
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            format!("{SHARED} --device /dev/nvidia247 -e NVIDIA_VISIBLE_DEVICES=1 {ENV_TAIL}\n")
                .as_str()
        )
    );
}

#[test]
fn only_the_drivers_own_nodes_are_granted_and_no_link_to_another_node() {
    // A BMC's render node reached through an nvidia-named link, a name the driver does not
    // make, a directory where the driver makes a node, and a name that smuggles a flag.
    let t = vfio_host();
    t.dev(&["dri/renderD130", "nvidia-fs0", "nvidia --privileged"]);
    t.link("/dev/nvidia-bmc", "dri/renderD130");
    t.link("/dev/nvidia-modeset", "dri/renderD130");
    t.dir("/dev/nvidia-uvm-tools");
    t.file("/dev/nvidia-caps/nvidia-cap1", "");
    let (code, out, err) = args_out(&t, "nvidia");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        format!(
            "--device /dev/nvidia-caps --device /dev/nvidia-uvm --device /dev/nvidia0 --device /dev/nvidia1 --device /dev/nvidiactl -e NVIDIA_VISIBLE_DEVICES=all {ENV_TAIL}\n"
        )
    );
    assert_eq!(
        err,
        "gpuctl: warning: not granted: /dev/nvidia --privileged (not a node NVIDIA's GPU driver makes), /dev/nvidia-bmc (not a node NVIDIA's GPU driver makes), /dev/nvidia-fs0 (not a node NVIDIA's GPU driver makes), /dev/nvidia-modeset (a link to /dev/dri/renderD130, not one of the driver's nodes), /dev/nvidia-uvm-tools (a directory, unlike the driver's) — only the nodes NVIDIA's driver makes are passed; add any other with --device yourself if the container needs it\n"
    );
    // The index grant shares the filter, and a GPU's own node may not be a link.
    let (code, out, _) = args_out(&t, "nvidia:0");
    assert_eq!((code, out.as_str()), (0, format!("--device /dev/nvidia-caps --device /dev/nvidia-uvm --device /dev/nvidiactl --device /dev/nvidia0 -e NVIDIA_VISIBLE_DEVICES=0 {ENV_TAIL}\n").as_str()));
    std::fs::remove_file(t.path("/dev/nvidia1")).unwrap();
    t.link("/dev/nvidia1", "dri/renderD130");
    let (code, out, err) = args_out(&t, "nvidia:2");
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "gpuctl: error: /dev/nvidia1 is a symbolic link (to dri/renderD130), not the GPU's device node — refusing to grant what it leads to; check the host's /dev\n"
    );
}

#[test]
fn plain_output_never_carries_a_blank_a_newline_or_a_wildcard_inside_an_argument() {
    // The PCI address of an AMD render node comes from the last component of its sysfs
    // 'device' link: a hostile tree can put a newline and a flag there, and a by-path link of
    // that name makes gpuctl mount it.
    let t = Tree::new();
    t.dev(&["kfd"]);
    let addr = "0000:03:00.0\n--privileged";
    t.render_node("renderD128", "0x1002", addr);
    t.by_path(addr, "renderD128");
    gpuctl(t.root())
        .args(["args", "amd"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::starts_with(
            "gpuctl: error: the argument \"type=bind,source=/dev/dri/by-path/pci-0000:03:00.0\\n--privileged-render,",
        ).and(predicate::str::contains("holds white space, a control character or a shell wildcard")).and(predicate::function(|s: &str| s.lines().count() == 1)));
    // JSON carries the same argument, escaped: one string, no extra flag.
    let out = gpuctl(t.root())
        .args(["args", "--format", "json", "amd"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let args: Vec<String> = serde_json::from_slice(&out.stdout).unwrap();
    assert!(!args.contains(&"--privileged".to_string()), "{args:?}");
    assert!(
        args.iter()
            .any(|a| a.contains("0000:03:00.0\n--privileged")),
        "{args:?}"
    );
    // A render node whose own name carries a flag is no render node: never an argument.
    let t = Tree::new();
    t.dev(&["kfd"]);
    t.render_node("renderD128 --privileged", "0x1002", "0000:03:00.0");
    t.render_node("renderD129", "0x1002", "0000:0b:00.0");
    gpuctl(t.root())
        .args(["args", "amd"])
        .assert()
        .code(0)
        .stdout("--device /dev/kfd --device /dev/dri/renderD129 --group-add keep-groups\n")
        .stderr(predicate::str::contains(
            "renderD128 --privileged is not a render node name the kernel makes",
        ));
}

#[test]
fn a_hundred_thousand_distinct_selectors_finish_well_within_seconds() {
    // Quadratic de-duplication took 14 s in a release build; linear, a debug build on a
    // loaded machine takes about 2 s. The bound is generous on purpose.
    let t = vfio_host();
    let selectors: Vec<String> = (0..100_000).map(|i| format!("nvidia:{i}")).collect();
    let started = std::time::Instant::now();
    let out = gpuctl(t.root())
        .arg("args")
        .args(&selectors)
        .output()
        .unwrap();
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("gpuctl: error: the selection asks for nvidia device(s) [3, 4, 5,"),
        "{}",
        &err[..200.min(err.len())]
    );
    assert!(took < Duration::from_secs(15), "took {took:?}");
}
