//! Every finding kind: its stable code and its sentence. The sentences are the ones gpuctl
//! printed before findings were typed, so stderr did not move.

use std::path::PathBuf;

use rstest::rstest;

use super::*;
use gpuctl_cdi::ReadProblem;

fn host_error(path: &str, problem: ReadProblem) -> HostError {
    HostError {
        path: PathBuf::from(path),
        problem,
    }
}

#[rstest]
#[case::spec_invalid(
    Finding::CdiSpecInvalid { path: "/etc/cdi/old.json".into(), reason: "invalid version \"0.9.9\"".into() },
    "cdi-spec-invalid",
    "CDI spec /etc/cdi/old.json is skipped: invalid version \"0.9.9\"; podman skips it too (it reports only 'unresolvable CDI devices'), so fix or regenerate it"
)]
#[case::spec_unloadable(
    Finding::CdiSpecUnloadable { path: "/etc/cdi/nvidia.yaml".into(), reason: "podman 4.3.1 cannot load cdiVersion 0.6.0".into() },
    "cdi-spec-unloadable",
    "CDI spec /etc/cdi/nvidia.yaml is skipped: podman 4.3.1 cannot load cdiVersion 0.6.0; podman skips it too (it reports only 'unresolvable CDI devices'), so upgrade podman, or regenerate the spec for this podman"
)]
#[case::crashes_library(
    Finding::CdiSpecCrashesLibrary { path: "/etc/cdi/x.yaml".into(), reason: "a null device node".into() },
    "cdi-spec-crashes-library",
    "CDI spec /etc/cdi/x.yaml is skipped: a null device node; podman's CDI library crashes on it, so fix or regenerate it"
)]
#[case::alias_expansion(
    Finding::CdiSpecAliasExpansion { path: "/etc/cdi/x.yaml".into(), reason: "aliases expand it past 4194304 bytes".into() },
    "cdi-spec-alias-expansion",
    "CDI spec /etc/cdi/x.yaml is skipped: aliases expand it past 4194304 bytes; podman's CDI library may still load it, building gigabytes of text on the way, so regenerate it without YAML aliases"
)]
#[case::dir_unreadable(
    Finding::CdiDirUnreadable { error: host_error("/etc/cdi", ReadProblem::PermissionDenied) },
    "cdi-dir-unreadable",
    "the CDI spec directory /etc/cdi cannot be read (permission denied), so its specs are not considered; make it readable (podman cannot read it either)"
)]
#[case::wrong_extension(
    Finding::CdiSpecWrongExtension { path: "/etc/cdi/nvidia.yml".into() },
    "cdi-spec-wrong-extension",
    "/etc/cdi/nvidia.yml is not read: CDI reads only .json and .yaml files; rename it to .yaml if it is a spec"
)]
#[case::not_regular(
    Finding::CdiSpecNotRegular { path: "/etc/cdi/pipe.yaml".into(), kind: "a FIFO", fifo: true },
    "cdi-spec-not-regular-file",
    "/etc/cdi/pipe.yaml is not read: it is a FIFO, not a regular file; podman's CDI library would try to read it and wait for a writer, so remove it from the CDI directory"
)]
#[case::spec_unreadable(
    Finding::CdiSpecUnreadable { error: host_error("/etc/cdi/a.yaml", ReadProblem::Loop) },
    "cdi-spec-unreadable",
    "CDI spec /etc/cdi/a.yaml is a loop of symbolic links; it is skipped"
)]
#[case::too_many(
    Finding::CdiDirTooManySpecs { dir: "/etc/cdi".into(), limit: 1024 },
    "cdi-dir-too-many-specs",
    "/etc/cdi holds more than 1024 spec files; the rest are not read"
)]
#[case::conflict(
    Finding::CdiDeviceConflict { device: "nvidia.com/gpu=0".into(), paths: vec!["/etc/cdi/a.yaml".into(), "/etc/cdi/b.yaml".into()] },
    "cdi-device-conflict",
    "conflicting CDI device \"nvidia.com/gpu=0\" (specs /etc/cdi/a.yaml, /etc/cdi/b.yaml): two specs in one directory declare it, so neither is usable; remove the stale spec"
)]
#[case::stale(
    Finding::CdiSpecStale { path: "/etc/cdi/nvidia.yaml".into(), missing: vec!["/dev/nvidia3".into(), "/dev/nvidia4".into()] },
    "cdi-spec-stale",
    "CDI spec /etc/cdi/nvidia.yaml injects 2 host device node(s) that do not exist here (first: /dev/nvidia3): it is stale — regenerate it, or podman fails with 'failed to stat CDI host device'"
)]
#[case::name_invalid(
    Finding::VendorNameInvalid { vendor: "All".into() },
    "vendor-name-invalid",
    "the vendor backend 'All' is ignored: a vendor name is lowercase letters, digits, '-' or '_' and not one of all, true, none, false"
)]
#[case::name_taken(
    Finding::VendorNameTaken { vendor: "amd".into() },
    "vendor-name-taken",
    "a second vendor backend named 'amd' is ignored: two linked crates register that name"
)]
#[case::drm_name(
    Finding::DrmNodeNameInvalid { path: "/sys/class/drm/renderD1 2".into() },
    "drm-node-name-invalid",
    "/sys/class/drm/renderD1 2 is not a render node name the kernel makes (renderD<number>); it is skipped — check that /sys is sysfs"
)]
#[case::drm_not_a_link(
    Finding::DrmDeviceNotALink { node: "renderD128".into(), path: "/sys/class/drm/renderD128/device".into() },
    "drm-device-not-a-link",
    "/sys/class/drm/renderD128/device is a file where a link to its PCI device is expected; renderD128 is skipped — check that /sys is sysfs"
)]
#[case::drm_unreadable(
    Finding::DrmNodeUnreadable { node: "renderD128".into(), error: host_error("/sys/class/drm/renderD128/device/vendor", ReadProblem::PermissionDenied) },
    "drm-node-unreadable",
    "/sys/class/drm/renderD128/device/vendor cannot be read (permission denied); renderD128 is skipped — check that /sys is sysfs"
)]
#[case::drm_address(
    Finding::DrmAddressUnknown { node: "renderD129".into(), error: host_error("/sys/class/drm/renderD129/device", ReadProblem::NotALink) },
    "drm-address-unknown",
    "/sys/class/drm/renderD129/device is not a symbolic link, so the PCI address of renderD129 is unknown and it is ordered by its name after the others — check that /sys is sysfs"
)]
#[case::pci_address(
    Finding::PciAddressInvalid { path: "/sys/class/drm/renderD128/device".into(), name: "pci-0000:03:00.0,Z".into() },
    "pci-address-invalid",
    "'pci-0000:03:00.0,Z' in /sys/class/drm/renderD128/device is not a PCI address (DDDD:BB:DD.F in lower-case hex), so it is skipped — check that /sys is sysfs"
)]
#[case::device_links(
    Finding::DeviceLinksNotGranted { vendor: "amd".into(), entries: "/dev/kfd (a link to /dev/sda, not one of the driver's nodes)".into() },
    "device-links-not-granted",
    "not granted: /dev/kfd (a link to /dev/sda, not one of the driver's nodes) — a device node that is a symbolic link is passed only when it leads to one of the amd driver's own nodes (podman would hand the container what it leads to); check the host's /dev"
)]
#[case::by_path(
    Finding::ByPathLinkUnreadable { error: host_error("/dev/dri/by-path/pci-0000:03:00.0-render", ReadProblem::Loop) },
    "by-path-link-unreadable",
    "/dev/dri/by-path/pci-0000:03:00.0-render is a loop of symbolic links, so it is not mounted into the container; run 'udevadm trigger' to recreate the /dev/dri/by-path links"
)]
#[case::pci_unlistable(
    Finding::PciUnlistable { error: host_error("/sys/bus/pci/devices", ReadProblem::PermissionDenied) },
    "pci-unlistable",
    "/sys/bus/pci/devices cannot be read (permission denied); PCI devices could not be listed — check that /sys is sysfs"
)]
#[case::pci_device(
    Finding::PciDeviceUnreadable { address: "0000:3b:00.0".into(), error: host_error("/sys/bus/pci/devices/0000:3b:00.0/class", ReadProblem::Io("Input/output error".into())) },
    "pci-device-unreadable",
    "/sys/bus/pci/devices/0000:3b:00.0/class cannot be read (Input/output error); PCI device 0000:3b:00.0 skipped"
)]
#[case::nodes_not_granted(
    Finding::DeviceNodesNotGranted { vendor: "ascend".into(), entries: "/dev/hisi_hdc (a directory, not a device node)".into() },
    "device-nodes-not-granted",
    "not granted: /dev/hisi_hdc (a directory, not a device node) — a device node or driver file is passed only when it is the ascend driver's own (a symbolic link only when it leads to one of the driver's nodes, since podman would hand the container what it leads to); check the host's /dev"
)]
#[case::best_effort(
    Finding::IndexBestEffort { vendor: "amd".into(), note: String::new(), numbering: None },
    "index-best-effort",
    "'amd' GPU device selection without CDI is best-effort: gpuctl orders devices by PCI bus address, which may differ from the vendor tools' numbering.  Install the vendor's CDI spec for authoritative device mapping."
)]
#[case::best_effort_own_numbering(
    Finding::IndexBestEffort { vendor: "ascend".into(), note: String::new(), numbering: Some("ascend:N is /dev/davinciN, the driver's own number, passed without the vendor's container runtime".into()) },
    "index-best-effort",
    "'ascend' device selection without CDI is best-effort: ascend:N is /dev/davinciN, the driver's own number, passed without the vendor's container runtime.  Install the vendor's CDI spec for authoritative device mapping."
)]
#[case::vendor(
    Finding::vendor("acme", "acme-firmware-old", vec![("version", "1.2".into())], "acme firmware 1.2 is too old; update it".into()),
    "acme-firmware-old",
    "acme firmware 1.2 is too old; update it"
)]
fn each_kind_has_its_code_and_sentence(
    #[case] finding: Finding,
    #[case] code: &str,
    #[case] message: &str,
) {
    assert_eq!(finding.code(), code);
    assert_eq!(finding.to_string(), message);
    let json = serde_json::to_value(&finding).unwrap();
    assert_eq!(json["code"], code);
    assert_eq!(json["message"], message);
    for (key, value) in finding.facts() {
        assert_eq!(json[key], value, "{key}");
    }
}

#[test]
fn json_carries_the_facts_between_code_and_message() {
    let f = Finding::CdiSpecInvalid {
        path: "/etc/cdi/old.json".into(),
        reason: "invalid version \"0.9.9\"".into(),
    };
    assert_eq!(
        serde_json::to_string(&f).unwrap(),
        r#"{"code":"cdi-spec-invalid","path":"/etc/cdi/old.json","reason":"invalid version \"0.9.9\"","message":"CDI spec /etc/cdi/old.json is skipped: invalid version \"0.9.9\"; podman skips it too (it reports only 'unresolvable CDI devices'), so fix or regenerate it"}"#
    );
}

#[test]
fn unique_keeps_the_first_of_each() {
    let a = Finding::VendorNameTaken { vendor: "a".into() };
    let b = Finding::VendorNameTaken { vendor: "b".into() };
    assert_eq!(unique(vec![a.clone(), b.clone(), a.clone()]), vec![a, b]);
}

#[test]
fn a_host_problem_is_a_path_and_a_stable_problem_code() {
    let f = Finding::DrmNodeUnreadable {
        node: "renderD128".into(),
        error: host_error(
            "/sys/class/drm/renderD128/device/vendor",
            ReadProblem::PermissionDenied,
        ),
    };
    let json = serde_json::to_value(&f).unwrap();
    assert_eq!(json["node"], "renderD128");
    assert_eq!(json["path"], "/sys/class/drm/renderD128/device/vendor");
    assert_eq!(json["problem"], "permission-denied");
}
