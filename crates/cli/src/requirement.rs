//! `gpuctl requirement`: which driver stack can drive the given GPUs or the host's. NVIDIA's
//! answer (kernel module, branch) comes from `gpuctl_nvidia::requirement`, as it always has;
//! other vendors' (ROCm, kernel driver, kernel) from their tables through core's neutral report,
//! appended after it ([`crate::requirement_vendors`]). Prints and picks the exit code.

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

use gpuctl_core::Registry;
use gpuctl_core::requirement::report::{self as neutral};
use gpuctl_nvidia::cuda::{self, CudaVersion};
use gpuctl_nvidia::floor_verdict;
use gpuctl_nvidia::image_env;
use gpuctl_nvidia::model::site::load_site_rows;
use gpuctl_nvidia::requirement::{Report, host_report, ids_report, parse_device_ids};
use gpuctl_nvidia::table::builtin_table;

use crate::error::RequirementInput;
use crate::requirement_vendors as vendors;
use crate::write_out;
use crate::{CliError, Context, Outcome};

/// Output formats of `gpuctl requirement`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RequirementFormat {
    /// For people: one line per GPU, the combined requirement, the driver verdict.
    Text,
    /// One JSON object: {"vendors": [{"vendor", "gpus", "combined", "conflicts", "driver"}],
    /// "host_conflicts", "warnings"}, one shape for every vendor.
    Json,
}

/// Flags of `gpuctl requirement`.
#[derive(Debug, clap::Args)]
pub struct RequirementArgs {
    /// How to print the answer.
    #[arg(long, value_enum, ignore_case = true, default_value = "text")]
    pub format: RequirementFormat,

    /// Check a driver stack, one spec per flag: NVIDIA's open:580 (exactly branch 580),
    /// open:580+ (the newest branch a repository carries, at least 580), open (branch
    /// unknown), 580 (module unknown); rocm:6.2, kernel:6.8 (add + for "at least"), xe or i915
    /// for the other vendors. Exit 1 when the stack cannot drive the GPUs.
    #[arg(long, value_name = "SPEC")]
    pub driver: Vec<String>,

    /// A CUDA toolkit (X.Y or X.Y.Z, e.g. 12.8): adds its minimum Linux driver from NVIDIA's
    /// CUDA release notes (Table 3) to the NVIDIA requirement.
    #[arg(long, value_name = "X.Y[.Z]")]
    pub cuda: Option<String>,

    /// An image's environment, KEY=VALUE lines (FILE, or - for standard input; what `podman
    /// image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' IMAGE` prints): its
    /// NVIDIA_REQUIRE_* variables are checked against a --driver release by the container
    /// toolkit's rules, and its CUDA line is added as --cuda would be.
    #[arg(long, value_name = "FILE|-")]
    pub image_env: Option<PathBuf>,

    /// Site-policy rows (a .yaml, .yml or .json list of {first, last, generation,
    /// kernel_module, min_branch, max_branch, compute}) put in front of the built-in table. Read
    /// from this machine, not under --root.
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,

    /// PCI device ids: VVVV:DDDD for any vendor (1002:74a1, 8086:56a5), and NVIDIA's as XXXX,
    /// 0xXXXX or 10de:XXXX, any case; none: the host's GPUs, from /sys/bus/pci/devices.
    #[arg(value_name = "DEVICE_ID")]
    pub device_ids: Vec<String>,
}

/// Runs `gpuctl requirement`: exit 0 when one driver fits (and `--driver` is it), 1 when the
/// GPUs conflict or the driver does not satisfy them, 2 for invalid input.
pub fn run(
    ctx: &Context,
    args: &RequirementArgs,
    out: &mut dyn Write,
) -> Result<Outcome, CliError> {
    let registry = Registry::discovered();
    let split = vendors::split_ids(&args.device_ids, registry)?;
    let ids = parse_device_ids(&split.nvidia).map_err(CliError::DeviceId)?;
    let (driver, specs) = vendors::split_specs(&args.driver)?;
    let image = args.image_env.as_deref().map(read_image_env).transpose()?;
    let cuda = match args.cuda.as_deref().map(parse_cuda).transpose()? {
        Some(c) => Some(c),
        None => image
            .as_ref()
            .and_then(floor_verdict::image_cuda)
            .filter(|v| cuda::toolkit_floor(*v).is_some()),
    };
    let mut table = builtin_table();
    if let Some(path) = &args.table {
        let rows = load_site_rows(path).map_err(CliError::SiteTable)?;
        table = table.with_prepended(rows);
    }
    let host_mode = args.device_ids.is_empty();
    let (others, mut other_warnings) = if host_mode {
        vendors::host_gpus(&ctx.host, registry)
    } else {
        (vendors::id_gpus(&split.others), Vec::new())
    };
    vendors::check_specs_have_gpus(&specs, &others)?;
    // Ids of other vendors only: NVIDIA has nothing to say, not even "no NVIDIA GPU found".
    let mut nvidia = if host_mode {
        Some(host_report(&ctx.host, &table, driver.as_ref()))
    } else if !ids.is_empty() || others.is_empty() {
        Some(ids_report(&table, &ids, driver.as_ref()))
    } else {
        None
    };
    if let Some(n) = nvidia.as_mut() {
        floor_verdict::apply(n, driver.as_ref(), cuda);
        if let Some(env) = &image {
            floor_verdict::apply_image(n, env, driver.as_ref()).map_err(|reason| {
                CliError::Requirement(RequirementInput::BadImageEnv {
                    file: args.image_env.clone().unwrap_or_default(),
                    reason,
                })
            })?;
        }
    }
    let nvidia_gpus = nvidia.as_ref().map_or(0, |n| n.gpus.len());
    vendors::check_nvidia_spec_has_gpu(driver.as_ref(), nvidia_gpus, &others)?;
    let rest = neutral::report(&others, &specs);
    let mut warnings = nvidia
        .as_ref()
        .map(|n| n.warnings.clone())
        .unwrap_or_default();
    other_warnings.retain(|w| !warnings.contains(w));
    warnings.extend(other_warnings);
    ctx.ui.warn_all(&warnings);
    let text = match args.format {
        RequirementFormat::Json => {
            // One shape for every vendor (docs/requirement.md#json): NVIDIA's answer is the
            // first entry of `vendors` when NVIDIA is in the request, never the top level.
            let mut entries: Vec<Entry<'_>> = Vec::new();
            if let Some(n) = &nvidia {
                entries.push(Entry::Nvidia(NvidiaEntry {
                    vendor: "nvidia",
                    report: n,
                }));
            }
            entries.extend(rest.vendors.iter().map(Entry::Other));
            let answer = Answer {
                vendors: entries,
                host_conflicts: &rest.host_conflicts,
                warnings: &warnings,
            };
            let mut s = serde_json::to_string_pretty(&answer).map_err(json_error)?;
            s.push('\n');
            s
        }
        RequirementFormat::Text => {
            let mut s = nvidia.as_ref().map(render_text).unwrap_or_default();
            s.push_str(&vendors::render_text(&rest));
            s
        }
    };
    write_out(out, &text)?;
    let unserved = nvidia.as_ref().is_some_and(Report::unserved) || rest.unserved();
    Ok(if unserved {
        Outcome::NotSatisfied
    } else {
        Outcome::Served
    })
}

/// NVIDIA's entry of `vendors`: its selector name, then Rex's answer (GPUs, combined,
/// conflicts, driver, and the CUDA and image sections when asked).
#[derive(serde::Serialize)]
struct NvidiaEntry<'a> {
    vendor: &'static str,
    #[serde(flatten)]
    report: &'a Report,
}

/// One vendor's entry, in the shape every vendor has.
#[derive(serde::Serialize)]
#[serde(untagged)]
enum Entry<'a> {
    Nvidia(NvidiaEntry<'a>),
    Other(&'a neutral::VendorStack),
}

/// The whole answer: every vendor's entry, the conflicts across vendors, the warnings.
#[derive(serde::Serialize)]
struct Answer<'a> {
    vendors: Vec<Entry<'a>>,
    host_conflicts: &'a [String],
    warnings: &'a [String],
}

/// `--image-env FILE|-`: the image's environment lines.
pub(crate) fn read_image_env(path: &std::path::Path) -> Result<image_env::ImageEnv, CliError> {
    let text = if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map(|_| s)
    } else {
        std::fs::read_to_string(path)
    };
    text.map(|t| image_env::parse(&t)).map_err(|e| {
        CliError::Requirement(RequirementInput::BadImageEnv {
            file: path.to_path_buf(),
            reason: format!("cannot be read: {e}"),
        })
    })
}

/// `--cuda`: a version Table 3 has a row for.
fn parse_cuda(text: &str) -> Result<CudaVersion, CliError> {
    let bad = |reason: String| {
        CliError::Requirement(RequirementInput::BadCuda {
            text: text.to_string(),
            reason,
        })
    };
    let v = CudaVersion::parse(text).map_err(|e| bad(e.to_string()))?;
    if cuda::toolkit_floor(v).is_none() {
        return Err(bad(format!(
            "NVIDIA's CUDA release notes (Table 3) list no CUDA {v}; give a released toolkit, e.g. 12.8 or 13.0"
        )));
    }
    Ok(v)
}

fn json_error(e: serde_json::Error) -> CliError {
    CliError::Encode {
        what: "answer",
        reason: e.to_string(),
    }
}

/// The answer for people.
pub fn render_text(answer: &Report) -> String {
    let mut s = String::new();
    for gpu in &answer.gpus {
        if let Some(addr) = &gpu.pci_address {
            let _ = write!(s, "{addr} ");
        }
        let r = &gpu.requirement;
        let _ = write!(s, "{}: {}", r.who, r.describe);
        if !gpu.counted {
            s.push_str(" (left out of the combined requirement)");
        }
        s.push('\n');
        for line in &gpu.floors {
            let _ = writeln!(s, "  {line}");
        }
    }
    if let Some(i) = &answer.image {
        let asks = match (&i.cuda, i.disabled) {
            (_, true) => "no check (NVIDIA_DISABLE_REQUIRE)".to_string(),
            (Some(c), false) => format!("CUDA {c} or newer"),
            (None, false) => "no CUDA line".to_string(),
        };
        let _ = writeln!(
            s,
            "image: {asks}, {} NVIDIA_REQUIRE_* variable(s)",
            i.requires.len()
        );
        match (&i.verdict, &i.why) {
            (Some(v), Some(why)) => {
                let _ = writeln!(s, "  image on the --driver release: {v} — {why}");
            }
            (Some(v), None) => {
                let _ = writeln!(s, "  image on the --driver release: {v}");
            }
            _ => {}
        }
    }
    if let Some(c) = &answer.cuda {
        let _ = writeln!(
            s,
            "CUDA {}: driver {} or newer ({}, CUDA release notes Table 3)",
            c.version, c.min_driver, c.toolkit
        );
        for note in &c.notes {
            let _ = writeln!(s, "  note: {note}");
        }
    }
    match &answer.combined {
        Some(c) => {
            let _ = writeln!(s, "combined: {}", c.describe);
        }
        None if answer.gpus.is_empty() => s.push_str("no NVIDIA GPU found\n"),
        None if !answer.conflicts.is_empty() => s.push_str("combined: none — the GPUs conflict\n"),
        None => s.push_str("combined: none — every GPU is left out\n"),
    }
    for c in &answer.conflicts {
        let _ = writeln!(s, "conflict: {c}");
    }
    if let Some(d) = &answer.driver {
        match &d.why_not {
            None => {
                let _ = writeln!(s, "driver {}: satisfies", d.spec);
            }
            Some(why) => {
                let _ = writeln!(s, "driver {}: does not satisfy — {why}", d.spec);
            }
        }
    }
    s
}
