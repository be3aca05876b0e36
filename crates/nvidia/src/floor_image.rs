//! An image's requirements (`--image-env`) added to NVIDIA's entry (docs/requirement.md, "An
//! image's environment"): the CUDA line it asks for, and the container toolkit's verdict on
//! the `--driver` release, which makes the driver not satisfy where it fails or depends on the
//! GPU's brand or architecture.

use gpuctl_core::plugin::requirement::report::{Section, VendorStack};

use crate::cuda::CudaVersion;
use crate::requirement::DriverSpec;

/// An image's requirements (`--image-env`) and what they say of the `--driver` release.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageView {
    /// The CUDA line the image asks for (`cuda>=X.Y` of its first alternative, or
    /// `CUDA_VERSION`), when it asks for one.
    pub cuda: Option<String>,
    /// `NVIDIA_DISABLE_REQUIRE` turns its checks off.
    pub disabled: bool,
    /// The `NVIDIA_REQUIRE_*` variables it sets.
    pub requires: Vec<String>,
    /// The toolkit's verdict on the `--driver` release: `fits`, `fails` or `depends`; `null`
    /// without a full release to check.
    pub verdict: Option<String>,
    /// Why, when it does not fit.
    pub why: Option<String>,
}

/// The CUDA line an image asks for: `cuda>=X.Y` in the first alternative of
/// `NVIDIA_REQUIRE_CUDA`, else the legacy `CUDA_VERSION`'s major.minor, as the toolkit reads
/// them ([`crate::image_env::asked_cuda`]).
pub fn image_cuda(env: &crate::image_env::ImageEnv) -> Option<CudaVersion> {
    crate::image_env::asked_cuda(env)
        .and_then(|v| CudaVersion::parse(&v).ok())
        .map(CudaVersion::minor_line)
}

/// Adds an image's requirements to NVIDIA's entry and returns its section: when the
/// `--driver` spec names a full release, the toolkit's verdict on it (a failure or a
/// dependence on the GPU's brand or architecture makes the driver not satisfy). Errors name
/// the variable that does not read.
pub fn apply_image(
    report: &mut VendorStack,
    env: &crate::image_env::ImageEnv,
    spec: Option<&DriverSpec>,
) -> Result<ImageView, String> {
    use crate::image_env::{Fit, check};
    let mut view = ImageView {
        cuda: image_cuda(env).map(|v| v.to_string()),
        disabled: env.disabled,
        requires: env
            .requires
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect(),
        verdict: None,
        why: None,
    };
    if let Some(rel) = spec
        .and_then(DriverSpec::release)
        .filter(|r| !r.is_branch_only())
    {
        let (verdict, why) = match check(env, rel)? {
            Fit::Fits => ("fits", None),
            Fit::Fails(w) => ("fails", Some(w)),
            Fit::Depends(w) => ("depends", Some(w)),
        };
        view.verdict = Some(verdict.to_string());
        view.why = why.clone();
        // "Depends" (on the GPU's brand or architecture) is THE verdict's unknown.
        let fit = if verdict == "depends" {
            gpuctl_core::plugin::requirement::Fit::Unknown
        } else {
            gpuctl_core::plugin::requirement::Fit::No
        };
        if let Some(why) = &why {
            for d in report.gpus.iter_mut().filter_map(|g| g.driver.as_mut()) {
                if d.satisfied {
                    d.satisfied = false;
                    d.fits = fit;
                    d.why_not = Some(format!("the image: {why}"));
                }
            }
        }
        if let (Some(why), Some(d)) = (why, report.driver.as_mut())
            && d.satisfied
        {
            d.satisfied = false;
            d.fits = fit;
            d.why_not = Some(format!("the image: {why}"));
        }
    }
    Ok(view)
}

/// The `image` section of NVIDIA's entry and its lines, where [`crate::floor_verdict::sections`]
/// puts them (after the `cuda` section in JSON, before the CUDA line in text).
pub fn section(report: &mut VendorStack, i: &ImageView) {
    let section = Section::default()
        .field("cuda", i.cuda.clone())
        .field("disabled", i.disabled)
        .field("requires", i.requires.clone())
        .field("verdict", i.verdict.clone())
        .field("why", i.why.clone());
    report.sections.0.push(("image", section));
    let asks = match (&i.cuda, i.disabled) {
        (_, true) => "no check (NVIDIA_DISABLE_REQUIRE)".to_string(),
        (Some(c), false) => format!("CUDA {c} or newer"),
        (None, false) => "no CUDA line".to_string(),
    };
    report.lines.push(format!(
        "image: {asks}, {} NVIDIA_REQUIRE_* variable(s)",
        i.requires.len()
    ));
    match (&i.verdict, &i.why) {
        (Some(v), Some(why)) => report
            .lines
            .push(format!("  image on the --driver release: {v} — {why}")),
        (Some(v), None) => report
            .lines
            .push(format!("  image on the --driver release: {v}")),
        _ => {}
    }
}
