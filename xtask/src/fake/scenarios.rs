//! The scenarios of fake mode. Each one names what gpuctl is shown (a fake root with some
//! vendors, CDI specs, a hook), what it is asked (selectors), and — written down here from the
//! contract, never taken from gpuctl's output — the arguments it must print, the warnings it
//! must give, and the nodes the container must then hold.

use super::specs::{self, SpecFile};
use super::universe::{DrmGpu, KFD, Vendor, drm_gpus, nvidia_raw_all, nvidia_raw_indexed};
use crate::args_check::ArgsExpectation;
use crate::podman::{CdiVersion, version_text};

/// One scenario.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// Short name, unique (`--scenario` picks by it).
    pub name: &'static str,
    /// The vendors the fake root shows.
    pub vendors: Vec<Vendor>,
    /// CDI specs, written to the fake root's and to the host's /etc/cdi for this scenario.
    pub specs: Vec<SpecFile>,
    /// Whether the fake root has the legacy NVIDIA hook.
    pub hook: bool,
    /// `gpuctl args` selectors.
    pub selectors: Vec<&'static str>,
    /// The arguments gpuctl must print.
    pub args: ArgsExpectation,
    /// Fragments of the warnings gpuctl must print (and no others).
    pub warnings: Vec<String>,
    /// Host paths the container must hold (as ENXIO nodes).
    pub granted: Vec<String>,
    /// `KEY=VALUE` the container's environment must hold.
    pub env_inside: Vec<String>,
    /// A CDI device podman itself must refuse in this scenario (proves a spec is rejected).
    pub podman_refuses: Option<String>,
    /// Whether gpuctl is given `--podman-version` (the local podman's).
    pub tell_podman: bool,
    /// The arguments gpuctl prints when it is not told the podman version and a spec is above
    /// podman's CDI ceiling: the scenario then checks that podman refuses them.
    pub gap: Option<ArgsExpectation>,
    /// Why the scenario cannot run here.
    pub skip: Option<String>,
    /// Give podman a stand-in for NVIDIA's legacy hook (`--hooks-dir`); it must run and see
    /// these `NVIDIA_VISIBLE_DEVICES` values in the container's config, in order.
    pub hook_sees: Option<Vec<String>>,
}

impl Scenario {
    fn new(name: &'static str, vendors: &[Vendor], selectors: &[&'static str]) -> Self {
        Scenario {
            name,
            vendors: vendors.to_vec(),
            specs: Vec::new(),
            hook: false,
            selectors: selectors.to_vec(),
            args: ArgsExpectation::default(),
            warnings: Vec::new(),
            granted: Vec::new(),
            env_inside: Vec::new(),
            podman_refuses: None,
            tell_podman: true,
            gap: None,
            skip: None,
            hook_sees: None,
        }
    }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// `NVIDIA_VISIBLE_DEVICES=<visible>` and `NVIDIA_DRIVER_CAPABILITIES=all`, as every NVIDIA
/// tier prints them.
fn nvidia_env(visible: &str) -> Vec<String> {
    vec![
        format!("NVIDIA_VISIBLE_DEVICES={visible}"),
        "NVIDIA_DRIVER_CAPABILITIES=all".to_string(),
    ]
}

/// What gpuctl says about an index grant without CDI (`recipe::best_effort_warning`).
const BEST_EFFORT: &str = "GPU device selection without CDI is best-effort";

/// The NVIDIA raw tier for a whole grant.
fn nvidia_raw_whole(s: &mut Scenario) {
    s.args = ArgsExpectation {
        devices: nvidia_raw_all(),
        env: nvidia_env("all"),
        ..Default::default()
    };
    s.granted = nvidia_raw_all();
    s.env_inside = nvidia_env("all");
}

/// The render-node recipe (AMD, Intel): leading nodes, then each GPU's render node, then its
/// by-path link mounted read-only, then keep-groups once.
fn render_recipe(leading: &[&str], gpus: &[DrmGpu]) -> (ArgsExpectation, Vec<String>) {
    let mut devices = strings(leading);
    devices.extend(gpus.iter().map(DrmGpu::render_path));
    let links: Vec<String> = gpus.iter().map(DrmGpu::by_path).collect();
    let mut granted = devices.clone();
    granted.extend(links.iter().cloned());
    let args = ArgsExpectation {
        devices,
        by_path_mounts: links,
        env: Vec::new(),
        keep_groups: 1,
    };
    (args, granted)
}

/// Every scenario, for a podman whose highest loadable cdiVersion is `ceiling`.
pub fn all(ceiling: Option<CdiVersion>, above: Option<CdiVersion>) -> Vec<Scenario> {
    use Vendor::{Amd, Intel, Nvidia};
    // nvidia-ctk names devices "0", "1": a digit-leading name needs cdiVersion 0.5.0.
    let cdi_skip = match ceiling {
        None => Some("this podman has no CDI support (it needs 4.1 or newer)".to_string()),
        Some(c) if c < (0, 5, 0) => Some(format!(
            "this podman loads cdiVersion {} at most, too old for nvidia-ctk's device names \"0\", \"1\" (0.5.0)",
            version_text(c)
        )),
        Some(_) => None,
    };
    let version = version_text(ceiling.unwrap_or((0, 5, 0)));
    let mut out = Vec::new();

    // NVIDIA via CDI, whole: `all` resolves to the one usable vendor.
    let mut s = Scenario::new("nvidia-cdi-all", &[Nvidia], &["all"]);
    s.specs = vec![specs::nvidia("gpuctl-xtask-nvidia.yaml", &version)];
    s.args = ArgsExpectation {
        devices: strings(&["nvidia.com/gpu=all"]),
        env: nvidia_env("all"),
        ..Default::default()
    };
    s.granted = nvidia_raw_all();
    // The spec's own NVIDIA_VISIBLE_DEVICES=void wins over `-e`: podman applies CDI edits last.
    s.env_inside = strings(&[
        "NVIDIA_VISIBLE_DEVICES=void",
        "NVIDIA_DRIVER_CAPABILITIES=all",
    ]);
    s.skip = cdi_skip.clone();
    out.push(s);

    // NVIDIA via CDI, one index: nvidia.com/gpu=1 is 0000:41:00.0, Device Minor 0.
    let mut s = Scenario::new("nvidia-cdi-index", &[Nvidia], &["nvidia:1"]);
    s.specs = vec![specs::nvidia("gpuctl-xtask-nvidia.yaml", &version)];
    s.args = ArgsExpectation {
        devices: strings(&["nvidia.com/gpu=1"]),
        env: nvidia_env("1"),
        ..Default::default()
    };
    s.granted = nvidia_raw_indexed(&[1]);
    s.env_inside = strings(&[
        "NVIDIA_VISIBLE_DEVICES=void",
        "NVIDIA_DRIVER_CAPABILITIES=all",
    ]);
    s.skip = cdi_skip.clone();
    out.push(s);

    // Two specs declare the same names: /var/run/cdi's (fresh) beats /etc/cdi's (stale, from
    // before the minors changed) for gpuctl and podman alike, so nvidia.com/gpu=1 must bring
    // /dev/nvidia0 and not the stale spec's /dev/nvidia1.
    let mut s = Scenario::new("nvidia-cdi-override", &[Nvidia], &["nvidia:1"]);
    s.specs = vec![
        specs::nvidia_stale("gpuctl-xtask-nvidia.yaml", &version),
        specs::nvidia("gpuctl-xtask-nvidia.yaml", &version).in_dir(specs::RUN_CDI),
    ];
    s.args = ArgsExpectation {
        devices: strings(&["nvidia.com/gpu=1"]),
        env: nvidia_env("1"),
        ..Default::default()
    };
    s.granted = nvidia_raw_indexed(&[1]);
    s.env_inside = strings(&[
        "NVIDIA_VISIBLE_DEVICES=void",
        "NVIDIA_DRIVER_CAPABILITIES=all",
    ]);
    s.skip = cdi_skip.clone();
    out.push(s);

    // Issue 19 item 14: gpuctl's `-e NVIDIA_VISIBLE_DEVICES=all` beside a spec that sets
    // `void`, with a stand-in for the legacy hook. podman 4.3.1 keeps both values in the
    // container's config, the spec's last; the container sees `void`, and so does the hook,
    // which reads the environment into a map (the last value wins): it does not inject.
    let mut s = Scenario::new("nvidia-cdi-hook", &[Nvidia], &["nvidia"]);
    s.specs = vec![specs::nvidia("gpuctl-xtask-nvidia.yaml", &version)];
    s.args = ArgsExpectation {
        devices: strings(&["nvidia.com/gpu=all"]),
        env: nvidia_env("all"),
        ..Default::default()
    };
    s.granted = nvidia_raw_all();
    s.env_inside = strings(&[
        "NVIDIA_VISIBLE_DEVICES=void",
        "NVIDIA_DRIVER_CAPABILITIES=all",
    ]);
    s.hook_sees = Some(strings(&["all", "void"]));
    s.skip = cdi_skip.clone();
    out.push(s);

    // The same without `void` in the spec (toolkits before 1.15): a `-e` would be the only
    // value and the hook would inject every GPU next to the CDI devices, so gpuctl leaves
    // NVIDIA_VISIBLE_DEVICES out there; the hook runs and finds no value, so it does nothing.
    let mut s = Scenario::new("nvidia-cdi-hook-no-void", &[Nvidia], &["nvidia"]);
    s.specs = vec![specs::nvidia_without_void(
        "gpuctl-xtask-nvidia.yaml",
        &version,
    )];
    s.args = ArgsExpectation {
        devices: strings(&["nvidia.com/gpu=all"]),
        env: strings(&["NVIDIA_DRIVER_CAPABILITIES=all"]),
        ..Default::default()
    };
    s.granted = nvidia_raw_all();
    s.env_inside = strings(&["NVIDIA_DRIVER_CAPABILITIES=all"]);
    s.hook_sees = Some(Vec::new());
    s.skip = cdi_skip.clone();
    out.push(s);

    // NVIDIA raw nodes, whole vendor: every /dev/nvidia* entry.
    let mut s = Scenario::new("nvidia-raw-all", &[Nvidia], &["nvidia"]);
    nvidia_raw_whole(&mut s);
    out.push(s);

    // NVIDIA raw nodes, nvidia:1: the shared nodes and /dev/nvidia<Device Minor of index 1>.
    let mut s = Scenario::new("nvidia-raw-index", &[Nvidia], &["nvidia:1"]);
    s.args = ArgsExpectation {
        devices: nvidia_raw_indexed(&[1]),
        env: nvidia_env("1"),
        ..Default::default()
    };
    s.warnings = strings(&[BEST_EFFORT]);
    s.granted = nvidia_raw_indexed(&[1]);
    s.env_inside = nvidia_env("1");
    out.push(s);

    // The legacy hook beats the raw nodes: only the environment is passed; the hook (not
    // installed on this machine) would inject the GPUs, so no node may appear.
    let mut s = Scenario::new("nvidia-hook", &[Nvidia], &["nvidia"]);
    s.hook = true;
    s.args = ArgsExpectation {
        env: nvidia_env("all"),
        ..Default::default()
    };
    s.env_inside = nvidia_env("all");
    out.push(s);

    // AMD raw, whole vendor: /dev/kfd, both render nodes in PCI order, both by-path links.
    let mut s = Scenario::new("amd-raw-all", &[Amd], &["amd"]);
    (s.args, s.granted) = render_recipe(&[KFD], &drm_gpus(Amd));
    out.push(s);

    // AMD raw, amd:1: 0000:0b:00.0, which is renderD129 (render order runs against PCI order).
    let mut s = Scenario::new("amd-raw-index", &[Amd], &["amd:1"]);
    (s.args, s.granted) = render_recipe(&[KFD], &drm_gpus(Amd)[1..]);
    s.warnings = strings(&[BEST_EFFORT]);
    out.push(s);

    // Intel raw: its render node and by-path link.
    let mut s = Scenario::new("intel-raw", &[Intel], &["intel"]);
    (s.args, s.granted) = render_recipe(&[], &drm_gpus(Intel));
    out.push(s);

    // AMD and Intel together: both blocks in canonical order, keep-groups once.
    let mut s = Scenario::new("amd-intel", &[Amd, Intel], &["amd,intel"]);
    let (amd_args, amd_granted) = render_recipe(&[KFD], &drm_gpus(Amd));
    let (intel_args, intel_granted) = render_recipe(&[], &drm_gpus(Intel));
    s.args = ArgsExpectation {
        devices: [amd_args.devices, intel_args.devices].concat(),
        by_path_mounts: [amd_args.by_path_mounts, intel_args.by_path_mounts].concat(),
        env: Vec::new(),
        keep_groups: 1,
    };
    s.granted = [amd_granted, intel_granted].concat();
    let (amd_intel_args, amd_intel_granted) = (s.args.clone(), s.granted.clone());
    out.push(s);

    // Every vendor on raw nodes, `all`: NVIDIA's block, then AMD's, then Intel's; keep-groups
    // once although two vendors ask for it.
    let mut s = Scenario::new("all-raw", &[Nvidia, Amd, Intel], &["all"]);
    let mut devices = nvidia_raw_all();
    devices.extend(amd_intel_args.devices.iter().cloned());
    s.args = ArgsExpectation {
        devices,
        by_path_mounts: amd_intel_args.by_path_mounts.clone(),
        env: nvidia_env("all"),
        keep_groups: 1,
    };
    s.granted = [nvidia_raw_all(), amd_intel_granted].concat();
    s.env_inside = nvidia_env("all");
    out.push(s);

    // Specs both podman and gpuctl reject: gpuctl names each file, falls back to raw nodes,
    // and podman refuses the CDI device those specs would have declared.
    let mut s = Scenario::new("cdi-rejected", &[Nvidia], &["nvidia"]);
    s.specs = specs::rejected(&version);
    nvidia_raw_whole(&mut s);
    s.warnings = s.specs.iter().map(SpecFile::host_path).collect();
    s.podman_refuses = Some("nvidia.com/gpu=all".to_string());
    out.push(s);

    // A spec newer than this podman loads. Told the podman version, gpuctl names the file,
    // skips it and falls back to raw nodes; not told, it picks the spec and podman refuses it
    // ("unresolvable CDI devices"), which is why --podman-version exists.
    for (name, told) in [
        ("cdi-above-ceiling", true),
        ("cdi-above-ceiling-untold", false),
    ] {
        let mut s = Scenario::new(name, &[Nvidia], &["nvidia"]);
        s.tell_podman = told;
        match (ceiling, above) {
            (Some(_), Some(v)) => {
                let spec = specs::nvidia("gpuctl-xtask-nvidia-newer.yaml", &version_text(v));
                if told {
                    s.warnings = vec![spec.host_path()];
                } else {
                    s.gap = Some(ArgsExpectation {
                        devices: strings(&["nvidia.com/gpu=all"]),
                        env: nvidia_env("all"),
                        ..Default::default()
                    });
                }
                s.specs = vec![spec];
            }
            (None, _) => s.skip = cdi_skip.clone(),
            (Some(c), None) => {
                s.skip = Some(format!(
                    "this podman loads cdiVersion {}, the newest there is",
                    version_text(c)
                ))
            }
        }
        nvidia_raw_whole(&mut s);
        out.push(s);
    }

    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_cover_the_issue() {
        let all = all(Some((0, 5, 0)), Some((0, 6, 0)));
        let mut names: Vec<&str> = all.iter().map(|s| s.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len());
        assert!(all.iter().all(|s| s.skip.is_none()));
    }

    #[test]
    fn amd_intel_keeps_groups_once_and_orders_vendors() {
        let all = all(Some((0, 5, 0)), Some((0, 6, 0)));
        let s = all.iter().find(|s| s.name == "amd-intel");
        let Some(s) = s else {
            panic!("amd-intel is missing")
        };
        assert_eq!(s.args.keep_groups, 1);
        assert_eq!(
            s.args.devices,
            [
                "/dev/kfd",
                "/dev/dri/renderD130",
                "/dev/dri/renderD129",
                "/dev/dri/renderD128"
            ]
        );
    }

    #[test]
    fn old_podman_skips_cdi_scenarios() {
        let all = all(None, None);
        let skipped: Vec<&str> = all
            .iter()
            .filter(|s| s.skip.is_some())
            .map(|s| s.name)
            .collect();
        assert_eq!(
            skipped,
            [
                "nvidia-cdi-all",
                "nvidia-cdi-index",
                "nvidia-cdi-override",
                "nvidia-cdi-hook",
                "nvidia-cdi-hook-no-void",
                "cdi-above-ceiling",
                "cdi-above-ceiling-untold"
            ]
        );
    }
}
