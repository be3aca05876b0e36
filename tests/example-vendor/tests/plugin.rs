//! A vendor registered from outside gpuctl's crates is selectable by name, merges in canonical
//! order, and shows up in detect — with no change to the core.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::cargo::cargo_bin_cmd;
use gpuctl_core::plugin::Registry;
use gpuctl_example_vendor as _;
use gpuctl_testkit::Tree;
use predicates::prelude::*;

/// Two Acme devices (render numbers against PCI order), an Intel iGPU, and Acme's control node.
fn acme_host() -> Tree {
    let t = Tree::new();
    t.dev(&["acme-ctl"]);
    t.render_node("renderD129", "0x1e5a", "0000:41:00.0")
        .by_path("0000:41:00.0", "renderD129");
    t.file("/sys/bus/pci/devices/0000:41:00.0/acme_firmware", "2.1.0\n");
    t.render_node("renderD128", "0x1e5a", "0000:81:00.0");
    t.render_node("renderD130", "0x8086", "0000:00:02.0");
    t
}

fn gpuctl_acme(t: &Tree) -> assert_cmd::Command {
    let mut cmd = cargo_bin_cmd!("gpuctl-acme");
    cmd.env_clear().arg("--root").arg(t.root());
    cmd
}

#[test]
fn the_plugin_is_registered_after_the_builtin_vendors() {
    gpuctl_cli_linked();
    assert_eq!(
        Registry::discovered().names(),
        ["nvidia", "amd", "intel", "acme"]
    );
}

/// Naming the CLI library links the three built-in vendors into this test too.
fn gpuctl_cli_linked() {
    let _ = gpuctl_cli::EXIT_OK;
}

#[test]
fn acme_is_selectable_by_name() {
    let t = acme_host();
    gpuctl_acme(&t).args(["args", "acme"]).assert().code(0).stdout(
        "--device /dev/acme-ctl --device /dev/dri/renderD129 --device /dev/dri/renderD128 \
         --mount type=bind,source=/dev/dri/by-path/pci-0000:41:00.0-render,destination=/dev/dri/by-path/pci-0000:41:00.0-render,ro=true \
         --group-add keep-groups\n",
    );
}

#[test]
fn acme_indexes_follow_pci_order_and_warn() {
    let t = acme_host();
    gpuctl_acme(&t)
        .args(["args", "acme:1"])
        .assert()
        .code(0)
        .stdout("--device /dev/acme-ctl --device /dev/dri/renderD128 --group-add keep-groups\n")
        .stderr(predicate::str::contains(
            "'acme' GPU device selection without CDI is best-effort",
        ));
}

#[test]
fn all_merges_acme_after_intel_with_keep_groups_once() {
    let t = acme_host();
    gpuctl_acme(&t).args(["args", "all"]).assert().code(0).stdout(
        "--device /dev/dri/renderD130 --group-add keep-groups \
         --device /dev/acme-ctl --device /dev/dri/renderD129 --device /dev/dri/renderD128 \
         --mount type=bind,source=/dev/dri/by-path/pci-0000:41:00.0-render,destination=/dev/dri/by-path/pci-0000:41:00.0-render,ro=true\n",
    );
}

#[test]
fn acme_via_cdi_and_in_the_vocabulary_of_errors() {
    let t = Tree::new();
    t.cdi_spec("/etc/cdi/acme.yaml", "acme.example/npu", &["0", "1", "all"]);
    gpuctl_acme(&t)
        .args(["args", "acme:1"])
        .assert()
        .code(0)
        .stdout("--device acme.example/npu=1 --group-add keep-groups\n");
    gpuctl_acme(&t)
        .args(["args", "matrox"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "or a vendor name (nvidia, amd, intel, acme)",
        ));
}

#[test]
fn detect_lists_acme() {
    let t = acme_host();
    let out = gpuctl_acme(&t)
        .args(["detect", "--format", "json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let acme = &v["vendors"][3];
    assert_eq!(acme["vendor"], "acme");
    assert_eq!(acme["tier"], "raw");
    assert_eq!(acme["devices"][0]["render_node"], "/dev/dri/renderD129");
    assert_eq!(acme["devices"][1]["pci_address"], "0000:81:00.0");
    assert_eq!(acme["devices"][0]["firmware"], "2.1.0");
    assert!(acme["devices"][1]["firmware"].is_null());
}

/// A fact the plug-in adds shows in detect text, though the command line has never heard of it.
#[test]
fn detect_text_shows_the_plugins_own_fact() {
    let t = acme_host();
    gpuctl_acme(&t)
        .args(["detect"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "  acme:0  0000:41:00.0  /dev/dri/renderD129  firmware 2.1.0\n  acme:1  0000:81:00.0  /dev/dri/renderD128\n",
        ));
}

/// The plug-in's own table and stack component work in `requirement` with no core change.
#[test]
fn acme_gives_requirements_of_its_own() {
    let t = acme_host();
    gpuctl_acme(&t)
        .args(["requirement", "1e5a:0002", "--driver", "acme-firmware:1.9"])
        .assert()
        .code(1)
        .stdout(
            "Acme GPU (NPU2, 1e5a:0002): Acme firmware 2.0 or newer\n\
             Acme combined: Acme firmware 2.0 or newer\n\
             driver acme-firmware:1.9: does not satisfy — Acme GPU (NPU2, 1e5a:0002): \
             firmware 1.9 is older than 2.0\n",
        );
    gpuctl_acme(&t)
        .args(["requirement", "1e5a:0002", "--driver", "firmware:2.1+"])
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with(
            "driver firmware:2.1+: satisfies\n",
        ));
}

/// Acme's plan, which its crate only describes as facts, comes out in every format gpuctl has,
/// and each says what the podman arguments say.
#[test]
fn acme_renders_in_every_format_with_no_code_of_its_own() {
    use gpuctl_testkit::readback::{
        compose_to_podman, docker_to_podman, grouped, pairs, quadlet_to_podman,
    };
    let t = acme_host();
    // docker gets the nodes' group where it opens them (mode 0660, a group other than 0).
    let gid = gpuctl_testkit::other_gid();
    if let Some(gid) = gid {
        t.dev(&["dri/renderD128"]);
        for node in [
            "/dev/acme-ctl",
            "/dev/dri/renderD129",
            "/dev/dri/renderD128",
        ] {
            t.owned(node, 0o660, gid);
        }
    }
    let run = |format: &str| {
        let out = gpuctl_acme(&t)
            .args(["args", "--format", format, "acme"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{format}");
        String::from_utf8(out.stdout).unwrap()
    };
    let json: Vec<String> = serde_json::from_str(&run("json")).unwrap();
    let podman = pairs(&json);
    assert_eq!(run("plain"), format!("{}\n", json.join(" ")));
    let quadlet = run("quadlet");
    assert!(
        quadlet.starts_with("[Container]\nAddDevice=/dev/acme-ctl\n"),
        "{quadlet}"
    );
    assert_eq!(quadlet_to_podman(&quadlet).unwrap(), podman);
    assert_eq!(
        compose_to_podman(&run("compose")).unwrap(),
        grouped(&podman)
    );
    let (mut docker, gids) = docker_to_podman(&run("docker"));
    if gid.is_none() {
        docker.push(("--group-add".to_string(), "keep-groups".to_string()));
    }
    assert_eq!(docker, podman);
    assert_eq!(
        gids,
        gid.map(|g| g.to_string()).into_iter().collect::<Vec<_>>()
    );
}

/// A tier the render-node recipe has no plan for (a wrapping plug-in whose own `tier` chose the
/// hook tier) is an error naming the plug-in, never a raw grant.
#[test]
fn a_tier_the_recipe_does_not_serve_is_an_error_not_a_raw_grant() {
    use gpuctl_core::plugin::{GpuBackend, GpuError, Grant, Host, Probe, Tier};
    use gpuctl_example_vendor::ACME;
    let t = acme_host();
    let host = Host::at(t.root()).unwrap();
    let probe = Probe::new(&host, &[], None);
    assert!(ACME.plan(&probe, Some(Tier::Raw), &Grant::whole()).is_ok());
    let err = ACME
        .plan(&probe, Some(Tier::Hook), &Grant::whole())
        .unwrap_err();
    assert!(matches!(err, GpuError::TierUnsupported { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "the acme backend chose the 'hook' tier, which its plan does not serve; this is a bug in the acme plug-in, so report it to its authors and grant another vendor meanwhile"
    );
}

/// The plug-in's own noun reaches detect's sentences: an Acme accelerator is an NPU, not a GPU.
#[test]
fn detect_names_the_device_in_the_plugins_words() {
    let t = Tree::new();
    let out = gpuctl_acme(&t)
        .args(["detect", "--format", "json"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let acme = &v["vendors"][3];
    assert_eq!(acme["vendor"], "acme");
    assert_eq!(
        acme["reason"],
        "no Acme NPU: no valid CDI spec declares acme.example/npu, no /dev/acme-ctl, no Acme render node"
    );
}

/// Acme gives no `cdi_naming`, so `cdi generate` writes nothing and says whose job it is.
#[test]
fn a_plugin_without_cdi_naming_gets_no_spec() {
    let t = acme_host();
    gpuctl_acme(&t)
        .args(["cdi", "generate", "acme"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains(
            "gpuctl does not write acme's CDI spec",
        ));
}
