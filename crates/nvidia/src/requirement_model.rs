//! NVIDIA's part of `gpuctl requirement`, as core's [`RequirementModel`]: its id and `--driver`
//! forms, the generation table (Rex's model) with the user's site rows in front, the Kepler
//! rule, Rex's facts and wording, the per-GPU first listings, and the `cuda` and `image`
//! sections with their verdicts ([`crate::floor_verdict`]). Core builds the answer, the same
//! for every vendor.
//!
//! Decisions the reference leaves open, made here:
//! - A GPU found on the host whose *built-in* row says it is not compute (Kepler or older) is
//!   reported with a warning and left out of the combined requirement; one named by its id
//!   counts. Site rows never change that: detection ignores them, as the reference's `Detect`
//!   does.
//! - `combined` is `null` when no GPU counts (none found, or only Kepler-or-older ones) and when
//!   the GPUs conflict; a `--driver` check with no GPU that counts is satisfied.
//! - Names come from a `pci.ids` under the host root for host GPUs only; an explicit id has no
//!   name, so its answer does not depend on the machine it is asked on.

use std::cell::OnceCell;
use std::collections::HashMap;

use gpuctl_core::plugin::Host;
use gpuctl_core::plugin::pci::{self, PciDevice};
use gpuctl_core::plugin::requirement::RequirementInputError;
use gpuctl_core::plugin::requirement::report::VendorStack;
use gpuctl_core::plugin::{
    requirement as neutral,
    requirement::{
        CombineError, GpuRequirement, RequirementModel, RequirementSource, StackSpec,
        VendorRequest, Wording,
    },
};

use crate::cuda::{self, CudaVersion};
use crate::floor_verdict;
use crate::image_env::{self, ImageEnv};
use crate::model::RexFacts;
use crate::model::site::{MAX_FILE_BYTES, MAX_ROWS, SiteError, load_site_rows};
use crate::model::table::{GenerationRow, GenerationTable};
use crate::requirement::{NVIDIA_VENDOR_ID, parse_device_id, parse_driver_spec};
use crate::table::builtin_table;

/// NVIDIA's requirement model (docs/requirement.md#the-model), registered through the backend.
pub struct NvidiaRequirements;

/// The one instance the backend hands out.
pub static NVIDIA_REQUIREMENTS: NvidiaRequirements = NvidiaRequirements;

/// One request's model: the site rows (read and checked up front), the tables (built on the
/// first NVIDIA GPU, so a request for other vendors' GPUs never builds them), the toolkit and
/// the image asked about.
struct Source {
    site_rows: Option<Vec<GenerationRow>>,
    builtin: OnceCell<GenerationTable>,
    table: OnceCell<GenerationTable>,
    toolkit: Option<CudaVersion>,
    image: Option<(String, ImageEnv)>,
}

impl Source {
    fn builtin(&self) -> &GenerationTable {
        self.builtin.get_or_init(builtin_table)
    }

    /// The table's requirement for `id`, with a built-in row's ceiling lowered to the last
    /// branch NVIDIA's own legacy sections give the id where that is lower: Rex's "Kepler or
    /// older" row says 470 or older for every id below 1340, but the READMEs list a Fermi GPU
    /// (06c0) only under "The 390.xx driver supports", so its headline, its combined line and
    /// the verdict all say 390. A site's own row is its policy and is kept as written; Rex's
    /// table itself (and so its parity) is unchanged.
    fn lookup(&self, id: u16) -> neutral::Requirement {
        let table = self.table();
        let site_rows = self.site_rows.as_ref().map_or(0, Vec::len);
        let Some((index, row)) = table.row_for(id) else {
            return table.lookup(id);
        };
        let lowered = crate::release_lists::legacy_ceiling(id)
            .map(|(_, branch, _)| branch)
            .filter(|b| index >= site_rows && row.max_branch().is_none_or(|max| *b < max))
            .and_then(|b| {
                let min = row.min_branch().filter(|min| *min <= b);
                GenerationRow::new(
                    (id, id),
                    row.generation().map(|g| g.to_string().into()),
                    row.kernel_module(),
                    (min, Some(b)),
                    row.compute(),
                )
                .ok()
            });
        match lowered {
            Some(row) => row.requirement(id),
            None => row.requirement(id),
        }
    }

    fn table(&self) -> &GenerationTable {
        self.table.get_or_init(|| match &self.site_rows {
            Some(rows) => self.builtin().clone().with_prepended(rows.clone()),
            None => self.builtin().clone(),
        })
    }
}

impl RequirementSource for Source {
    fn requirements(&self, host: Option<&Host>, devices: &[PciDevice]) -> Vec<GpuRequirement> {
        let names = host.map(|h| host_names(h, devices)).unwrap_or_default();
        devices
            .iter()
            .map(|d| {
                tracing::debug!("NVIDIA GPU 10de:{:04x} at {}", d.device_id, d.address);
                let mut req = self.lookup(d.device_id);
                let name = names.get(&d.device_id);
                if let Some(name) = name {
                    req = req.with_name(name.clone());
                }
                let builtin = self.builtin().lookup(d.device_id);
                // A GPU named by its id always counts; only host-found ones are left out.
                let left_out = (host.is_some() && builtin.compute() == Some(false))
                    .then(|| not_compute_warning(d.device_id, name, &builtin));
                GpuRequirement {
                    floors: crate::floor_check::floor_lines(d.device_id, req.kernel_module()),
                    requirement: req,
                    left_out,
                }
            })
            .collect()
    }

    fn finish(
        &self,
        entry: &mut VendorStack,
        specs: &[&StackSpec],
    ) -> Result<(), RequirementInputError> {
        let spec = specs
            .iter()
            .find(|s| s.whole_stack)
            .and_then(|s| parse_driver_spec(&s.spec).ok());
        let cuda = floor_verdict::apply(entry, spec.as_ref(), self.toolkit);
        let image = match &self.image {
            Some((file, env)) => Some(
                crate::floor_image::apply_image(entry, env, spec.as_ref()).map_err(|reason| {
                    RequirementInputError::ImageEnv {
                        file: file.clone(),
                        reason,
                    }
                })?,
            ),
            None => None,
        };
        floor_verdict::sections(entry, cuda.as_ref(), image.as_ref());
        let toolkit = self.toolkit.and_then(|v| {
            crate::cuda::toolkit_floor(v).map(|row| (&row.driver, format!("CUDA {v}")))
        });
        crate::floor_combined::under_combined(entry, toolkit);
        Ok(())
    }
}

impl RequirementModel for NvidiaRequirements {
    fn source(
        &self,
        request: &VendorRequest<'_>,
    ) -> Result<Box<dyn RequirementSource>, RequirementInputError> {
        let image = request
            .image_env
            .map(|e| (e.name().to_string(), image_env::from_vars(e.vars())));
        let toolkit = match request.toolkit {
            Some(text) => Some(parse_toolkit(text)?),
            // The image's CUDA line stands for --cuda when Table 3 lists it, unless the image
            // turns its requirements off (NVIDIA_DISABLE_REQUIRE): then nothing of it counts
            // (issue 24, item 9).
            None => image
                .as_ref()
                .filter(|(_, env)| !env.disabled)
                .and_then(|(_, env)| crate::floor_image::image_cuda(env))
                .filter(|v| cuda::toolkit_floor(*v).is_some()),
        };
        let site_rows = match request.table {
            Some(path) => Some(load_site_rows(path).map_err(|e| {
                RequirementInputError::Table(format!("site table {e}; {}", site_remedy(&e)))
            })?),
            None => None,
        };
        Ok(Box::new(Source {
            site_rows,
            builtin: OnceCell::new(),
            table: OnceCell::new(),
            toolkit,
            image,
        }))
    }

    fn parse_bare_id(&self, token: &str) -> Option<Result<u16, String>> {
        Some(parse_device_id(token).map_err(|e| e.to_string()))
    }

    fn parse_spec(&self, spec: &str) -> Option<Result<StackSpec, String>> {
        Some(
            parse_driver_spec(spec)
                .map(|d| d.to_stack_spec())
                .map_err(|e| e.to_string()),
        )
    }

    fn combine(
        &self,
        reqs: &[&neutral::Requirement],
    ) -> Result<neutral::Requirement, CombineError> {
        crate::model::intersect(reqs)
    }

    fn wording(&self) -> Wording {
        let mut w = Wording::DEFAULT;
        w.bare_combined = true;
        w.none_found = Some("no NVIDIA GPU found");
        w.combined_verdict = true;
        w.spec_forms = "open:580 (exactly 580), open:580+ (580 or newer), open (branch unknown), \
                        580 (module unknown) or a full release such as open:570.124.06";
        w.example_id = "2901";
        w
    }
}

/// `--cuda`: a version Table 3 has a row for.
fn parse_toolkit(text: &str) -> Result<CudaVersion, RequirementInputError> {
    let bad = |reason: String| RequirementInputError::Toolkit {
        text: text.to_string(),
        reason,
    };
    let v = CudaVersion::parse(text).map_err(|e| bad(e.to_string()))?;
    if cuda::toolkit_floor(v).is_none() {
        return Err(bad(format!(
            "NVIDIA's CUDA release notes (Table 3) list no CUDA {v}; give a released toolkit, e.g. 12.8 or 13.0"
        )));
    }
    Ok(v)
}

/// The host's NVIDIA GPUs' names from the host's pci.ids, by device id.
fn host_names(host: &Host, devices: &[PciDevice]) -> HashMap<u16, String> {
    let ids: Vec<u16> = devices.iter().map(|d| d.device_id).collect();
    pci::device_names(host, NVIDIA_VENDOR_ID, &ids)
}

/// The remedy for a site table gpuctl cannot use.
fn site_remedy(e: &SiteError) -> String {
    match e {
        SiteError::Unreadable { .. } => "pass --table a readable file".to_string(),
        SiteError::UnknownFormat { .. } => "name it .json, .yaml or .yml".to_string(),
        SiteError::TooLarge { .. } | SiteError::TooManyRows { .. } => {
            format!("a site table holds at most {MAX_ROWS} rows in at most {MAX_FILE_BYTES} bytes")
        }
        SiteError::NotText { .. } | SiteError::Syntax { .. } => {
            "write a list of rows with first and last (hex device ids), kernel_module, \
             min_branch, max_branch, generation, compute"
                .to_string()
        }
        SiteError::BadRow { .. } => "fix or remove that row".to_string(),
    }
}

/// Rex-GPU's Kepler warning (docs/requirement.md#compute), ending in what gpuctl does instead of
/// skipping the install: the GPU is left out of the combination.
fn not_compute_warning(
    device_id: u16,
    name: Option<&String>,
    builtin: &neutral::Requirement,
) -> String {
    let shown = match name {
        Some(name) => format!("NVIDIA GPU {name} (10de:{device_id:04x})"),
        None => format!("NVIDIA GPU (10de:{device_id:04x})"),
    };
    let generation = builtin.generation().unwrap_or("unsupported");
    let needs = builtin.max_branch().map_or(String::new(), |max| {
        format!(
            ": it needs driver branch {max} or older, which current distributions no longer package"
        )
    });
    format!("{shown} is {generation} silicon{needs} -- left out of the combined requirement")
}
