//! The host root: links resolve inside it, hostile trees give errors, reads are bounded.

use super::*;
use gpuctl_testkit::Tree;

fn host(tree: &Tree) -> Host {
    Host::at(tree.root()).expect("root")
}

#[test]
fn relative_and_absolute_links_stay_inside_the_root() {
    let t = Tree::new();
    t.file("/run/cdi/nvidia.yaml", "x");
    t.link("/var/run", "../run");
    t.link("/etc/cdi/abs.yaml", "/run/cdi/nvidia.yaml");
    t.link("/etc/cdi/up.yaml", "../../../../../../run/cdi/nvidia.yaml");
    let h = host(&t);
    for p in [
        "/var/run/cdi/nvidia.yaml",
        "/etc/cdi/abs.yaml",
        "/etc/cdi/up.yaml",
    ] {
        assert_eq!(
            h.read_to_string(Path::new(p), 10).as_deref(),
            Ok("x"),
            "{p}"
        );
    }
}

#[test]
fn a_link_out_of_the_root_is_not_followed_out() {
    let outside = tempfile::tempdir().expect("tmp");
    std::fs::write(outside.path().join("secret"), "secret").expect("write");
    let t = Tree::new();
    t.link(
        "/etc/cdi/leak.yaml",
        &outside.path().join("secret").display().to_string(),
    );
    let h = host(&t);
    let err = h
        .read_to_string(Path::new("/etc/cdi/leak.yaml"), 100)
        .expect_err("must not leak");
    assert_eq!(err.problem, ReadProblem::DanglingLink);
    assert_eq!(err.path, Path::new("/etc/cdi/leak.yaml"));
}

#[test]
fn loops_are_reported_as_loops() {
    let t = Tree::new();
    t.link("/sys/class/drm/renderD128", "renderD128");
    t.link("/a", "b");
    t.link("/b", "a");
    let h = host(&t);
    let e = h
        .read_to_string(Path::new("/sys/class/drm/renderD128/device/vendor"), 100)
        .expect_err("loop");
    assert_eq!(e.problem, ReadProblem::Loop);
    assert_eq!(
        h.metadata(Path::new("/a")).expect_err("loop").problem,
        ReadProblem::Loop
    );
}

#[test]
fn absence_dangling_and_not_a_directory_are_told_apart() {
    let t = Tree::new();
    t.file("/dev/kfd", "");
    t.link("/dev/dangling", "nowhere");
    let h = host(&t);
    assert_eq!(h.exists(Path::new("/dev/kfd")), Ok(true));
    assert_eq!(h.exists(Path::new("/dev/nvidiactl")), Ok(false));
    assert_eq!(h.exists(Path::new("/dev/kfd/inside")), Ok(false));
    assert_eq!(
        h.exists(Path::new("/dev/dangling"))
            .expect_err("dangling")
            .problem,
        ReadProblem::DanglingLink
    );
}

#[test]
fn reads_are_bounded_and_say_so() {
    let t = Tree::new();
    t.file("/big", &"x".repeat(5000));
    let h = host(&t);
    let e = h
        .read_to_string(Path::new("/big"), 4096)
        .expect_err("too large");
    assert_eq!(e.problem, ReadProblem::TooLarge { limit: 4096 });
    assert_eq!(
        e.to_string(),
        "/big is larger than the 4096-byte read limit"
    );
}

#[test]
fn invalid_utf8_is_replaced_not_fatal() {
    let t = Tree::new();
    std::fs::write(t.path("/bytes"), b"\xff\xfe0x8086").expect("write");
    let h = host(&t);
    assert_eq!(
        h.read_to_string(Path::new("/bytes"), 100).as_deref(),
        Ok("\u{fffd}\u{fffd}0x8086")
    );
}

#[test]
fn a_fifo_is_not_read() {
    let t = Tree::new();
    t.dir("/sys");
    let status = std::process::Command::new("mkfifo")
        .arg(t.path("/sys/vendor"))
        .status();
    if !status.is_ok_and(|s| s.success()) {
        return; // no mkfifo on this machine: nothing to prove
    }
    let h = host(&t);
    let e = h
        .read_to_string(Path::new("/sys/vendor"), 100)
        .expect_err("not a file");
    assert!(matches!(e.problem, ReadProblem::Io(_)), "{e}");
}

#[test]
fn read_link_returns_the_raw_target() {
    let t = Tree::new();
    t.render_node("renderD128", "0x1002", "0000:03:00.0");
    let h = host(&t);
    let target = h
        .read_link(Path::new("/sys/class/drm/renderD128/device"))
        .expect("link");
    assert_eq!(target, Path::new("../../../0000:03:00.0"));
    let e = h
        .read_link(Path::new("/sys/devices/pci0000:00/0000:03:00.0/vendor"))
        .expect_err("not a link");
    assert_eq!(e.problem, ReadProblem::NotALink);
}

#[test]
fn listings_are_sorted_by_bytes() {
    let t = Tree::new();
    t.dev(&["nvidia2", "nvidia10", "nvidia-uvm", "nvidiactl", "nvidia1"]);
    let h = host(&t);
    let names: Vec<String> = h
        .list_dir(Path::new("/dev"))
        .expect("list")
        .iter()
        .map(|e| e.name_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        names,
        ["nvidia-uvm", "nvidia1", "nvidia10", "nvidia2", "nvidiactl"]
    );
}

#[test]
fn a_missing_root_is_an_error() {
    let e = Host::at("/definitely/not/here").expect_err("missing");
    assert_eq!(e.problem, ReadProblem::NotFound);
}

#[test]
fn canonical_names_the_host_path_a_link_leads_to() {
    let t = Tree::new();
    t.file("/dev/dri/renderD130", "");
    t.link("/dev/nvidia-bmc", "dri/renderD130");
    t.link("/dev/abs", "/dev/dri/../dri/renderD130");
    t.link("/dev/dangling", "dri/renderD999");
    t.file("/dev/nvidiactl", "");
    let h = host(&t);
    let canon = |p: &str| h.canonical(Path::new(p));
    assert_eq!(
        canon("/dev/nvidia-bmc"),
        Ok(PathBuf::from("/dev/dri/renderD130"))
    );
    assert_eq!(canon("/dev/abs"), Ok(PathBuf::from("/dev/dri/renderD130")));
    assert_eq!(canon("/dev/nvidiactl"), Ok(PathBuf::from("/dev/nvidiactl")));
    assert_eq!(
        canon("/dev/dangling").map_err(|e| e.problem),
        Err(ReadProblem::DanglingLink)
    );
}
