//! The DaemonSet as written (deploy/kubernetes/gpuctl-nfd.yaml, issue 28 items 1 and 7): its own
//! volumes and volumeMounts, laid over a bundled host tree, give gpuctl the host it reads. The
//! container's view is built from the manifest alone (each mountPath under `--root` filled from
//! its hostPath in the tree, nothing else), gpuctl runs with the manifest's own arguments, and
//! its labels must equal `report --format nfd` on the plain tree. `.ci/deploy-check` does the
//! same with podman and the FROM-scratch image.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::os::unix::fs::symlink;
use std::path::{Component, Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn manifest() -> Value {
    let path = repo().join("deploy/kubernetes/gpuctl-nfd.yaml");
    yaml_serde::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// One volumeMount with the hostPath volume it names.
#[derive(Debug)]
struct Mount {
    host_path: String,
    /// The hostPath `type`.
    kind: String,
    mount_path: String,
    read_only: bool,
    recursive: Option<String>,
}

/// The gpuctl container's arguments and its mounts, from the manifest.
fn container() -> (Vec<String>, Vec<Mount>) {
    let m = manifest();
    let spec = &m["spec"]["template"]["spec"];
    let c = spec["containers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "gpuctl")
        .expect("a container named gpuctl");
    let args = c["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    let volumes = spec["volumes"].as_array().unwrap();
    let mounts = c["volumeMounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|vm| {
            let name = vm["name"].as_str().unwrap();
            let v = volumes.iter().find(|v| v["name"] == name).unwrap();
            let host_path = v["hostPath"]["path"]
                .as_str()
                .unwrap_or_else(|| panic!("volume {name} is not a hostPath"));
            Mount {
                host_path: host_path.to_string(),
                kind: v["hostPath"]["type"].as_str().unwrap_or("").to_string(),
                mount_path: vm["mountPath"].as_str().unwrap().to_string(),
                read_only: vm["readOnly"].as_bool().unwrap_or(false),
                recursive: vm["recursiveReadOnly"].as_str().map(str::to_string),
            }
        })
        .collect();
    (args, mounts)
}

fn flag_value<'a>(args: &'a [String], flag: &str) -> &'a str {
    let i = args.iter().position(|a| a == flag).unwrap();
    &args[i + 1]
}

/// `path` (absolute, as on the host) inside `tree`, every symbolic link on the way followed as
/// the host's kernel follows it: an absolute target from the tree's root, a relative one from
/// the link's directory.
fn resolve(tree: &Path, path: &str) -> PathBuf {
    let mut todo: Vec<String> = Path::new(path)
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_str().unwrap().to_string()),
            _ => None,
        })
        .rev()
        .collect();
    let mut at: Vec<String> = Vec::new();
    let mut hops = 0;
    while let Some(part) = todo.pop() {
        if part == ".." {
            at.pop();
            continue;
        }
        let here = at.iter().fold(tree.to_path_buf(), |p, c| p.join(c));
        let candidate = here.join(&part);
        match std::fs::read_link(&candidate) {
            Ok(target) => {
                hops += 1;
                assert!(hops < 40, "{path}: too many links in {}", tree.display());
                if target.is_absolute() {
                    at.clear();
                }
                for c in target.components().rev() {
                    match c {
                        Component::Normal(n) => todo.push(n.to_str().unwrap().to_string()),
                        Component::ParentDir => todo.push("..".to_string()),
                        _ => {}
                    }
                }
            }
            Err(_) => at.push(part),
        }
    }
    at.iter().fold(tree.to_path_buf(), |p, c| p.join(c))
}

/// Copies `from` to `to` as a bind mount would show it: files, directories and symbolic links
/// (kept as links, not followed).
fn copy_tree(from: &Path, to: &Path) {
    let meta = std::fs::symlink_metadata(from).unwrap();
    if meta.file_type().is_symlink() {
        symlink(std::fs::read_link(from).unwrap(), to).unwrap();
    } else if meta.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        std::fs::copy(from, to).unwrap();
    }
}

/// The labels without the header and expiry comments, which carry the time of writing.
fn labels(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// What the DaemonSet's gpuctl writes on the node `host`: the view built from the manifest's
/// mounts, the manifest's own arguments (less `--every`, so it writes once), the output
/// directory a scratch one.
fn daemonset_labels(host: &str) -> String {
    let tree = repo().join("tests/hosts").join(host);
    let (args, mounts) = container();
    let root = flag_value(&args, "--root").to_string();
    let output = PathBuf::from(flag_value(&args, "--output"));
    let out_dir = output.parent().unwrap().to_str().unwrap().to_string();
    let scratch = tempfile::tempdir().unwrap();
    let view = scratch.path().join("view");
    let features = scratch.path().join("features.d");
    std::fs::create_dir_all(&view).unwrap();
    std::fs::create_dir_all(&features).unwrap();
    let mut in_view: Vec<&Mount> = Vec::new();
    let mut saw_output = false;
    for m in &mounts {
        if m.mount_path == out_dir {
            assert!(!m.read_only, "gpuctl cannot write {out_dir}");
            assert_eq!(
                m.host_path,
                "/etc/kubernetes/node-feature-discovery/features.d"
            );
            saw_output = true;
        } else {
            assert!(
                Path::new(&m.mount_path).starts_with(&root),
                "{}: a mount gpuctl neither reads nor writes",
                m.mount_path
            );
            // Everything gpuctl reads is read-only.
            assert!(m.read_only, "{} is writable", m.mount_path);
            in_view.push(m);
        }
    }
    assert!(saw_output, "no mount holds --output {}", output.display());
    // Outer mounts first, as the runtime stacks them.
    in_view.sort_by_key(|m| Path::new(&m.mount_path).components().count());
    for m in in_view {
        let source = resolve(&tree, &m.host_path);
        let rel = Path::new(&m.mount_path).strip_prefix(&root).unwrap();
        let target = view.join(rel);
        if target.exists() {
            std::fs::remove_dir_all(&target).unwrap();
        }
        if source.is_dir() {
            copy_tree(&source, &target);
        } else if m.kind == "DirectoryOrCreate" {
            // What the kubelet would make on the node: an empty directory.
            std::fs::create_dir_all(&target).unwrap();
        } else {
            panic!(
                "{host}: hostPath {} (type {}) is missing, so the pod would not start",
                m.host_path, m.kind
            );
        }
    }
    let mut run: Vec<String> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--every" => {
                it.next();
            }
            "--root" => {
                it.next();
                run.extend(["--root".to_string(), view.to_str().unwrap().to_string()]);
            }
            "--output" => {
                it.next();
                let file = features.join(output.file_name().unwrap());
                run.extend(["--output".to_string(), file.to_str().unwrap().to_string()]);
            }
            _ => run.push(a.clone()),
        }
    }
    let out = cargo_bin_cmd!("gpuctl")
        .env_clear()
        .env("SOURCE_DATE_EPOCH", "1796108400")
        .args(&run)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{run:?}: {out:?}");
    std::fs::read_to_string(features.join(output.file_name().unwrap())).unwrap()
}

fn plain_labels(host: &str) -> String {
    let out = cargo_bin_cmd!("gpuctl")
        .env_clear()
        .env("SOURCE_DATE_EPOCH", "1796108400")
        .arg("--root")
        .arg(repo().join("tests/hosts").join(host))
        .args(["report", "--format", "nfd"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_daemonset_view_labels_each_host_as_the_host_itself() {
    for host in ["dgx-b200", "nvidia-hook-only", "workstation", "empty"] {
        let written = daemonset_labels(host);
        assert!(written.contains("# +expiry-time="), "{written}");
        assert_eq!(labels(&written), labels(&plain_labels(host)), "{host}");
    }
}

#[test]
fn the_daemonset_view_keeps_what_the_old_mounts_lost() {
    // The mounts of 732cb86 labelled dgx-b200 tier=raw (its spec is in /var/run/cdi, mounted
    // at /host/run/cdi), with a false cdi-stale (no /usr) and no product (no pci.ids); the
    // hook-only host was raw (no OCI hook directories).
    let dgx = labels(&daemonset_labels("dgx-b200"));
    for want in [
        "gpuctl.io/nvidia.tier=cdi",
        "gpuctl.io/nvidia.product=NVIDIA-B200",
        "gpuctl.io/doctor.problems=0",
    ] {
        assert!(dgx.iter().any(|l| l == want), "{want}: {dgx:?}");
    }
    let hook = labels(&daemonset_labels("nvidia-hook-only"));
    assert!(
        hook.iter().any(|l| l == "gpuctl.io/nvidia.tier=hook"),
        "{hook:?}"
    );
}

#[test]
fn the_daemonset_is_hardened() {
    let m = manifest();
    let spec = &m["spec"]["template"]["spec"];
    assert_eq!(spec["automountServiceAccountToken"], false);
    assert_eq!(
        spec["securityContext"]["seccompProfile"]["type"],
        "RuntimeDefault"
    );
    assert_eq!(m["spec"]["updateStrategy"]["type"], "RollingUpdate");
    let c = &spec["containers"][0]["securityContext"];
    assert_eq!(c["allowPrivilegeEscalation"], false);
    assert_eq!(c["readOnlyRootFilesystem"], true);
    assert_eq!(c["capabilities"]["drop"][0], "ALL");
    assert!(c["privileged"].is_null() || c["privileged"] == false);
    // The host's root, read-only down to its submounts (/proc, /sys, /dev, /run), which a
    // plain read-only bind leaves writable to root.
    let (_, mounts) = container();
    for m in &mounts {
        // A DirectoryOrCreate would make directories on every node; gpuctl changes no host.
        assert_eq!(m.kind, "Directory", "{}", m.host_path);
    }
    let host = mounts.iter().find(|m| m.host_path == "/").unwrap();
    assert!(host.read_only);
    assert_eq!(host.recursive.as_deref(), Some("Enabled"));
    // It runs only where NFD's pci source sees a GPU of one of the three vendors.
    let terms = spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
        ["nodeSelectorTerms"]
        .as_array()
        .unwrap();
    let keys: Vec<&str> = terms
        .iter()
        .map(|t| t["matchExpressions"][0]["key"].as_str().unwrap())
        .collect();
    for want in [
        "feature.node.kubernetes.io/pci-0302_10de.present",
        "feature.node.kubernetes.io/pci-1200_1002.present",
        "feature.node.kubernetes.io/pci-0300_8086.present",
        "feature.node.kubernetes.io/pci-10de.present",
    ] {
        assert!(keys.contains(&want), "{want}: {keys:?}");
    }
}
