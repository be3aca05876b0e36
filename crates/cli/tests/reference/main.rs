//! The examples of the Python tool's behaviour (docs/reference-tools.md#examples, 1-45), one test
//! each, through the library with all three vendors linked. Messages keep the reference's facts in
//! gpuctl's words ("the selection requests" for "run.gpus requests"). The NVIDIA and mixed examples
//! are in nvidia.rs, the render-node (AMD, Intel) ones in render.rs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use gpuctl_cli as _; // links the vendor crates, so their registrations are present
use gpuctl_core::commands::render::podman_args;
use gpuctl_core::plugin::Probe;
use gpuctl_core::{
    commands::selector,
    plugin::{Host, Registry},
};
use gpuctl_testkit::Tree;

/// Runs a selection on a tree: the argument line and the warnings, or the error sentence.
fn run(t: &Tree, selection: &str) -> Result<(String, Vec<String>), String> {
    let host = Host::at(t.root()).unwrap();
    let dirs: Vec<PathBuf> = gpuctl_cdi::DEFAULT_SPEC_DIRS
        .iter()
        .map(PathBuf::from)
        .collect();
    let probe = Probe::new(&host, &dirs, None);
    let reg = Registry::discovered();
    let sel = selector::normalize(&[selection], &reg.names()).map_err(|e| e.to_string())?;
    reg.plan(&probe, &sel)
        .map(|p| {
            let notices = p.notices().iter().map(|n| n.to_string()).collect();
            (podman_args(&p).join(" "), notices)
        })
        .map_err(|e| e.to_string())
}

fn ok(t: &Tree, selection: &str) -> String {
    let (line, warnings) = run(t, selection).unwrap();
    assert!(warnings.is_empty(), "unexpected warnings {warnings:?}");
    line
}

fn warned(t: &Tree, selection: &str) -> (String, Vec<String>) {
    run(t, selection).unwrap()
}

fn err(t: &Tree, selection: &str) -> String {
    run(t, selection).expect_err("must fail")
}

fn mount(addr: &str) -> String {
    let l = format!("/dev/dri/by-path/pci-{addr}-render");
    format!("--mount type=bind,source={l},destination={l},ro=true")
}

const ENV_ALL: &str = "-e NVIDIA_VISIBLE_DEVICES=all -e NVIDIA_DRIVER_CAPABILITIES=all";
const NVIDIA_NONE: &str = "the selection requests 'nvidia' but this host has no CDI spec declaring 'nvidia.com/gpu', no legacy 'oci-nvidia-hook.json' OCI hook, and no /dev/nvidiactl — is the nvidia kernel driver loaded?  Install the NVIDIA Container Toolkit and generate a CDI spec ('nvidia-ctk cdi generate').";
const AMD_NONE: &str = "the selection requests 'amd' but this host has neither an 'amd.com/gpu' CDI spec nor /dev/kfd — is the amdgpu kernel driver loaded?  For CDI, install the AMD Container Toolkit ('amd-ctk cdi generate').";
const NVIDIA_WARNING: &str = "'nvidia' GPU device selection without CDI is best-effort: gpuctl orders devices by PCI bus address, which may differ from the vendor tools' numbering.  Install the vendor's CDI spec for authoritative device mapping (which also lifts the baked-driver requirement).";

fn cdi(t: &Tree, vendor: &str) {
    let names: &[&str] = &["0", "1", "2", "all"];
    t.cdi_spec(
        &format!("/etc/cdi/{vendor}.yaml"),
        &format!("{vendor}.com/gpu"),
        names,
    );
}

/// kfd plus renderD129 (AMD, 0000:03:00.0), renderD128 (AMD, 0000:0b:00.0), renderD130
/// (Intel, 0000:00:02.0), with their by-path links: the reference's "TRI" host.
fn tri(kfd: bool) -> Tree {
    let t = Tree::new();
    t.render_node("renderD129", "0x1002", "0000:03:00.0")
        .by_path("0000:03:00.0", "renderD129");
    t.render_node("renderD128", "0x1002", "0000:0b:00.0")
        .by_path("0000:0b:00.0", "renderD128");
    t.render_node("renderD130", "0x8086", "0000:00:02.0")
        .by_path("0000:00:02.0", "renderD130");
    if kfd {
        t.dev(&["kfd"]);
    }
    t
}

mod nvidia;
mod render;
