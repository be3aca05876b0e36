//! Device nodes that are symbolic links. podman and docker follow a link given to `--device`
//! and hand the container what it leads to (`/dev/kfd -> sda` hands over the disk), so every
//! vendor grants a node that is a link only when it resolves, inside the host root, to one of
//! that vendor's own nodes. The vendor says which paths are its own; this is the one mechanism
//! that follows the link and decides (docs/output-safety.md, "Device nodes that are links").

use std::path::{Path, PathBuf};

use crate::text::{escape_controls, py_strip};
use crate::{Host, HostError};
use gpuctl_cdi::ReadProblem;

/// Why a node is not granted, as the words in parentheses after its path: `(a link to /dev/sda,
/// not one of the driver's nodes)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut(pub String);

/// Checks a `/dev` entry known to be a symbolic link: `Ok` with the host path it resolves to when
/// `is_own` accepts that path, otherwise why it is left out.
pub fn vet_link(
    host: &Host,
    path: &Path,
    is_own: impl Fn(&Path) -> bool,
) -> Result<PathBuf, LeftOut> {
    match host.canonical(path) {
        Ok(target) if is_own(&target) => Ok(target),
        Ok(target) => Err(LeftOut(format!(
            "a link to {}, not one of the driver's nodes",
            escape_controls(&target.display().to_string())
        ))),
        Err(e) => Err(LeftOut(e.problem.to_string())),
    }
}

/// Checks a node a vendor is about to grant: a node that is not a link (or is absent: the
/// vendor's own rules decide about absence) passes; a link passes only through [`vet_link`].
pub fn vet_node(host: &Host, path: &Path, is_own: impl Fn(&Path) -> bool) -> Result<(), LeftOut> {
    match host.read_link(path) {
        Ok(_) => vet_link(host, path, is_own).map(|_| ()),
        Err(e) if matches!(e.problem, ReadProblem::NotALink | ReadProblem::NotFound) => Ok(()),
        Err(e) => Err(LeftOut(e.problem.to_string())),
    }
}

/// True when `target` is `dir/<name>` with a name `is_name` accepts: the shape of a driver's
/// own node (`/dev` and `nvidiactl`, `/dev/dri` and `renderD128`).
pub fn is_node_in(target: &Path, dir: &str, is_name: impl Fn(&str) -> bool) -> bool {
    target.parent() == Some(Path::new(dir))
        && target
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(is_name)
}

/// The `vendor` file of the PCI function the class node `<class_dir>/<name>` belongs to
/// (`/sys/class/drm/renderD128/device/vendor`), stripped: whose device the node is. Every
/// vendor's nodes are decided by this one read, render nodes ([`crate::drm::scan`]) and the
/// numbered nodes of a sysfs class (core's `node_vendor::layout_nodes`) alike; a node with no
/// such file (a platform device) is `NotFound`.
pub fn function_vendor(host: &Host, class_dir: &str, name: &str) -> Result<String, HostError> {
    let path = Path::new(class_dir).join(name).join("device/vendor");
    host.read_to_string(&path, SYSFS_ATTR_LIMIT)
        .map(|text| py_strip(&text).to_string())
}

/// Where the class node's `device` link leads (`../../../0000:03:00.0`): its PCI function.
pub fn function_link(host: &Host, class_dir: &str, name: &str) -> Result<PathBuf, HostError> {
    host.read_link(&Path::new(class_dir).join(name).join("device"))
}

/// A sysfs attribute is a line; more than this is no attribute.
const SYSFS_ATTR_LIMIT: u64 = 4096;

#[cfg(test)]
mod tests {
    use super::*;
    use gpuctl_testkit::Tree;

    fn own_render(t: &Path) -> bool {
        is_node_in(t, "/dev/dri", |n| n == "renderD128")
    }

    #[test]
    fn links_pass_only_to_the_vendor_s_own_nodes() {
        let t = Tree::new();
        t.dev(&["sda", "dri/renderD128", "kfd"]);
        t.link("/dev/dri/renderD129", "../sda")
            .link("/dev/dri/renderD130", "renderD128")
            .link("/dev/dri/renderD131", "/dev/dri/renderD999")
            .link("/dev/dri/renderD132", "renderD132");
        let host = Host::at(t.root()).expect("root");
        let vet = |p: &str| vet_node(&host, Path::new(p), own_render);
        assert_eq!(vet("/dev/dri/renderD128"), Ok(()));
        assert_eq!(vet("/dev/kfd"), Ok(()));
        assert_eq!(vet("/dev/dri/renderD200"), Ok(())); // absent: the vendor's business
        assert_eq!(vet("/dev/dri/renderD130"), Ok(()));
        assert_eq!(
            vet("/dev/dri/renderD129"),
            Err(LeftOut(
                "a link to /dev/sda, not one of the driver's nodes".into()
            ))
        );
        assert_eq!(
            vet("/dev/dri/renderD131"),
            Err(LeftOut(
                "is a symbolic link whose target does not exist".into()
            ))
        );
        assert_eq!(
            vet("/dev/dri/renderD132"),
            Err(LeftOut("is a loop of symbolic links".into()))
        );
    }
}
