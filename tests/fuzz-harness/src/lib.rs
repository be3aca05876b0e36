//! What each fuzz target runs. The fuzzers under `fuzz/` call these functions with their
//! inputs; `tests/regressions.rs` replays every input a fuzzer ever crashed on (kept under
//! `fuzz/regressions/<target>/`) through the same functions, so a fixed crash stays fixed under
//! `cargo test`. Each function panics only where gpuctl broke a promise: a panic inside the
//! library, or an invariant the contract states (a grant of a device nobody declared).

use std::path::{Path, PathBuf};

use gpuctl_cdi::CdiRegistry;
use gpuctl_cdi::podman::PodmanCeiling;
use gpuctl_cdi::spec::{SpecFormat, parse_spec};
use gpuctl_core::{
    commands::selector::{Pick, Selection},
    plugin::{Host, Probe, Registry},
};
use gpuctl_nvidia::model::site::{Format, parse_site_rows};

// The vendor crates register their backends with `inventory`; naming them links them.
use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

/// What a fuzz target runs on one input.
pub type Target = fn(&[u8]);

/// Every fuzz target, by the name its fuzzer and its regression directory carry.
pub const TARGETS: &[(&str, Target)] = &[
    ("selector", selector),
    ("cdi_spec", cdi_spec),
    ("cdi_dir", cdi_dir),
    ("cdi_fast", cdi_fast),
    ("explain", explain),
    ("ids", ids),
    ("site_table", site_table),
];

/// The registered vendor names, in canonical order, as the CLI passes them.
fn vendors() -> Vec<&'static str> {
    Registry::discovered().names()
}

/// The selector: the input's lines are the values of repeated arguments.
pub fn selector(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let values: Vec<&str> = text.split('\n').collect();
    let vendors = vendors();
    if let Ok(Selection::Grants(grants)) =
        gpuctl_core::commands::selector::normalize(&values, &vendors)
    {
        for (vendor, _) in &grants {
            assert!(
                vendors.contains(&vendor.as_str()),
                "granted an unregistered vendor {vendor:?}"
            );
        }
    }
}

/// One CDI spec, parsed alone: the first byte picks JSON or YAML.
pub fn cdi_spec(data: &[u8]) {
    let Some((&first, body)) = data.split_first() else {
        return;
    };
    let format = if first & 1 == 0 {
        SpecFormat::Json
    } else {
        SpecFormat::Yaml
    };
    let _ = parse_spec(body, format);
}

/// One CDI spec, the whole input: wherever the fast path decodes it, the full reader must decode
/// it to the same spec (gpuctl_cdi's `fast.rs`).
pub fn cdi_fast(data: &[u8]) {
    let agrees = gpuctl_cdi::spec::fast_path_agrees(data);
    assert!(
        agrees.is_ok(),
        "the fast path and the full reader differ: {agrees:?}"
    );
}

/// The file names a fuzzed spec directory can hold: both formats, the ignored `.yml`, a name
/// without an extension, and a capitalised extension.
const SPEC_NAMES: &[&str] = &[
    "a.json", "b.yaml", "c.json", "d.yaml", "e.yml", "f.JSON", "g", "h.yaml",
];

/// A spec directory pair (`/etc/cdi`, then `/var/run/cdi`): the input is cut at each 0xFF byte;
/// each piece's first byte picks its directory and file name, the rest is the file. The
/// directories are then scanned as `args` does, and `args all` and every vendor's whole grant
/// must name only CDI devices some spec declares.
pub fn cdi_dir(data: &[u8]) {
    let Ok(tmp) = tempfile::tempdir() else {
        return;
    };
    let dirs = [PathBuf::from("/etc/cdi"), PathBuf::from("/var/run/cdi")];
    for dir in &dirs {
        let _ = std::fs::create_dir_all(under(tmp.path(), dir));
    }
    for piece in data.split(|&b| b == 0xFF).take(16) {
        let Some((&pick, body)) = piece.split_first() else {
            continue;
        };
        let dir = &dirs[usize::from(pick >> 7)];
        let name = SPEC_NAMES[usize::from(pick) % SPEC_NAMES.len()];
        let _ = std::fs::write(under(tmp.path(), dir).join(name), body);
    }
    let Ok(host) = Host::at(tmp.path()) else {
        return;
    };
    let cdi = CdiRegistry::scan(&host, &dirs);
    let _ = cdi.warnings();
    for spec in cdi.specs() {
        if let Some(kind) = &spec.kind {
            let _ = cdi.device_names(kind);
            let _ = cdi.kind_declared(kind);
        }
    }
    let probe = Probe::with_cdi(&host, cdi);
    let registry = Registry::discovered();
    let mut selections = vec![Selection::All];
    for backend in registry.backends() {
        let name = backend.vendor().to_string();
        selections.push(Selection::Grants(vec![(name.clone(), None)]));
        selections.push(Selection::Grants(vec![(
            name.clone(),
            Some(Pick::Index(0)),
        )]));
        // Every declared name is selectable by name on the CDI tier.
        for device in probe.cdi().device_names(backend.cdi_kind()) {
            let pick = Pick::Name(device.to_string());
            selections.push(Selection::Grants(vec![(name.clone(), Some(pick))]));
        }
    }
    for selection in &selections {
        if let Ok(plan) = registry.plan(&probe, selection) {
            check_cdi_grants(&probe, &gpuctl_core::commands::render::podman_args(&plan));
        }
    }
}

/// Every `--device KIND=NAME` names a device some valid spec declares (or `KIND=all` where a
/// spec declares `all`): nothing is granted that the host does not offer.
fn check_cdi_grants(probe: &Probe, args: &[String]) {
    for pair in args.windows(2) {
        if pair[0] != "--device" {
            continue;
        }
        let Some((kind, name)) = pair[1].split_once('=') else {
            continue;
        };
        assert!(
            probe.cdi().has_device(kind, name),
            "granted {}, which no spec declares",
            pair[1]
        );
    }
}

fn under(root: &Path, host_path: &Path) -> PathBuf {
    root.join(host_path.strip_prefix("/").unwrap_or(host_path))
}

/// The explain classifier, over podman's stderr as text.
pub fn explain(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Some(found) =
        gpuctl_core::commands::explain::explain(&text, Registry::discovered(), None)
    {
        let _ = found.render();
    }
}

/// Device ids, driver specs, PCI attributes, `nvidia-smi`-style minors, podman versions and CDI
/// versions: every small token parser, each fed the whole input.
pub fn ids(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();
    let _ = gpuctl_nvidia::requirement::parse_device_id(text);
    let _ = gpuctl_nvidia::requirement::parse_device_ids(text.split_whitespace());
    if let Ok(spec) = gpuctl_nvidia::requirement::parse_driver_spec(text) {
        let req = gpuctl_nvidia::table::builtin_requirement(0x2901);
        let _ = req.why_not(&spec.to_stack());
    }
    if let Some(id) = gpuctl_nvidia::model::table::parse_lenient_device_id(text) {
        let _ = gpuctl_amd::requirement::lookup(id, None);
        let _ = gpuctl_intel::requirement::lookup(id);
    }
    let _ = gpuctl_core::plugin::requirement::Version::parse(text);
    let _ = gpuctl_core::plugin::pci::parse_hex_attr(text);
    let _ = gpuctl_core::plugin::pci::parse_pci_ids(text, 0x10de, &[0x2901, 0x2330]);
    let _ = gpuctl_nvidia::nodes::parse_device_minor(text);
    let _ = PodmanCeiling::parse(text);
    if let Some(v) = gpuctl_cdi::version::parse_version(text) {
        let _ = gpuctl_cdi::version::min_podman(v);
    }
}

/// A site-policy table: the first byte picks JSON or YAML, the rows are then checked and put
/// in front of the built-in table.
pub fn site_table(data: &[u8]) {
    let Some((&first, body)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(body) else {
        return;
    };
    let (format, path) = if first & 1 == 0 {
        (Format::Json, Path::new("site.json"))
    } else {
        (Format::Yaml, Path::new("site.yaml"))
    };
    if let Ok(rows) = parse_site_rows(text, format, path) {
        let table = gpuctl_nvidia::table::builtin_table().with_prepended(rows);
        for id in [0x0000, 0x1db4, 0x2330, 0x2901, 0xffff] {
            let _ = table.lookup(id).describe();
        }
    }
}
