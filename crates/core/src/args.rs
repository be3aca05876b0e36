//! From a selection to one `podman run` argument list: each granted vendor's block in canonical
//! order, then repeated (flag, value) pairs dropped. Any vendor's failure fails the call.

use std::collections::HashSet;

use crate::backend::{GpuBackend, Grant, Probe, RunArgs};
use crate::error::GpuError;
use crate::registry::Registry;
use crate::selector::Selection;

/// The vendors a selection grants, with what is granted of each, in canonical order. `All`
/// resolves to every vendor usable now and fails when there is none.
pub fn plan(
    registry: &Registry,
    probe: &Probe,
    selection: &Selection,
) -> Result<Vec<(&'static dyn GpuBackend, Grant)>, GpuError> {
    match selection {
        Selection::None => Ok(Vec::new()),
        Selection::All => {
            let mut plan = Vec::new();
            for backend in registry.backends() {
                if probe.tier_of(*backend)?.is_some() {
                    plan.push((*backend, Grant::whole()));
                }
            }
            if plan.is_empty() {
                let mut missing = vec!["no vendor CDI spec".to_string()];
                missing.extend(
                    registry
                        .backends()
                        .iter()
                        .map(|b| b.missing_summary().to_string()),
                );
                return Err(GpuError::NoUsableGpu { missing });
            }
            Ok(plan)
        }
        Selection::Grants(grants) => {
            let mut plan: Vec<(&'static dyn GpuBackend, Grant)> = Vec::new();
            for backend in registry.backends() {
                let mine: Vec<Option<u32>> = grants
                    .iter()
                    .filter(|(v, _)| v == backend.vendor())
                    .map(|(_, i)| *i)
                    .collect();
                if mine.is_empty() {
                    continue;
                }
                let grant = if mine.contains(&None) {
                    Grant::whole()
                } else {
                    Grant::indexes(mine.into_iter().flatten().collect())
                };
                plan.push((*backend, grant));
            }
            Ok(plan)
        }
    }
}

/// The `podman run` arguments for a selection, with the warnings to print on success.
pub fn run_args(
    registry: &Registry,
    probe: &Probe,
    selection: &Selection,
) -> Result<RunArgs, GpuError> {
    let mut out = RunArgs::default();
    for (backend, grant) in plan(registry, probe, selection)? {
        let block = backend.run_args(probe, &grant)?;
        tracing::debug!("{}: {:?}", backend.vendor(), block.args);
        out.args.extend(block.args);
        out.warnings.extend(block.warnings);
    }
    out.args = dedup_pairs(out.args);
    Ok(out)
}

/// Cuts the list into consecutive pairs (an odd last item is a pair of one) and keeps only the
/// first of each identical pair. In practice this drops the second `--group-add keep-groups`
/// when two vendors each need it.
pub fn dedup_pairs(args: Vec<String>) -> Vec<String> {
    let mut seen: HashSet<&[String]> = HashSet::new();
    let mut out = Vec::with_capacity(args.len());
    for pair in args.chunks(2) {
        if seen.insert(pair) {
            out.extend_from_slice(pair);
        }
    }
    out
}

#[cfg(test)]
#[path = "args_tests.rs"]
mod tests;
