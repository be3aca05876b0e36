//! From a selection to one [`Plan`]: each granted vendor's plan in canonical order, on the tier
//! decided once per vendor ([`Probe::tier_of`]). Any vendor's failure fails the call.

use crate::backend::{GpuBackend, Grant, Probe};
use crate::error::GpuError;
use crate::plan::Plan;
use crate::registry::Registry;
use crate::selector::Selection;

/// The vendors a selection grants, with what is granted of each, in canonical order. `All`
/// resolves to every vendor usable now and fails when there is none.
pub fn grants(
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

/// The plan for a selection: every granted vendor's plan, in canonical order. The tier each
/// vendor is served on is decided here, once, and handed to its backend.
pub fn plan(registry: &Registry, probe: &Probe, selection: &Selection) -> Result<Plan, GpuError> {
    let mut vendors = Vec::new();
    for (backend, grant) in grants(registry, probe, selection)? {
        let tier = probe.tier_of(backend)?;
        let block = backend.plan(probe, tier, &grant)?;
        tracing::debug!("{}: {:?}", backend.vendor(), block.items());
        vendors.push(block);
    }
    Ok(Plan::new(vendors))
}

#[cfg(test)]
#[path = "args_tests.rs"]
mod tests;
