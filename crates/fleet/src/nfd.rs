//! The report as a Node Feature Discovery local feature file
//! (`/etc/kubernetes/node-feature-discovery/features.d/`): one `name=value` line per label under
//! the `gpuctl.io/` prefix, after a `# +expiry-time=` directive so that a node whose gpuctl
//! stops running loses the labels instead of keeping stale ones. Every label is checked against
//! the rules NFD applies ([`crate::label`]) before it is printed; the label set and each
//! label's meaning and source are in docs/fleet.md#labels.

use std::fmt::Write as _;

use thiserror::Error;

use crate::clock::rfc3339;
use crate::label::{check_label_value, nfd_label_name, value_from};
use crate::model::{Kind, Report, VendorEntry};

/// The NVIDIA chip labels beside GPU Feature Discovery's: a child of this module, as it fills
/// this module's [`Labels`].
mod chip;

/// gpuctl's label prefix.
pub const PREFIX: &str = "gpuctl.io";
/// NFD skips a feature file larger than this, whole.
pub const MAX_FILE_BYTES: usize = 64 * 1024;
/// How long the labels stay after they were written, at least: twelve runs of the DaemonSet's
/// five-minute timer (deploy/kubernetes), so a few missed runs do not drop them.
pub const EXPIRY_SECS: u64 = 3600;
/// The latest time RFC 3339 can write (9999-12-31T23:59:59Z): a longer `--every` gets this.
const LAST_RFC3339: u64 = 253_402_300_799;

/// How long labels written now must stay: [`EXPIRY_SECS`], or two periods of `--every` when
/// that is longer, so the labels outlive the next write by at least one more period (a write
/// takes a moment, and one failed write does not drop them).
pub fn lifetime(every: Option<u64>) -> u64 {
    every.map_or(EXPIRY_SECS, |e| e.saturating_mul(2).max(EXPIRY_SECS))
}

/// One label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// The full name (`gpuctl.io/nvidia.count`).
    pub name: String,
    /// The value (may be empty).
    pub value: String,
}

/// Why no feature file was written.
#[derive(Debug, Error)]
pub enum NfdError {
    /// The labels would not fit the size NFD reads.
    #[error("the feature file would be {bytes} bytes, over the {MAX_FILE_BYTES} NFD reads")]
    TooLarge {
        /// Its size.
        bytes: usize,
    },
}

pub(crate) struct Labels {
    out: Vec<Label>,
    dropped: Vec<String>,
}

impl Labels {
    /// Adds `gpuctl.io/NAME=VALUE` when both pass the rules; otherwise says why it is left out.
    pub(crate) fn add(&mut self, name: &str, value: &str) {
        let full = format!("{PREFIX}/{name}");
        match nfd_label_name(&full).and_then(|n| check_label_value(value).map(|()| n)) {
            Ok(n) => self.out.push(Label {
                name: n,
                value: value.to_string(),
            }),
            Err(why) => self
                .dropped
                .push(format!("label {full}={value:?} left out: {why}")),
        }
    }

    /// A host-supplied value, made a label value first ([`value_from`]).
    pub(crate) fn add_host(&mut self, name: &str, raw: &str) {
        match value_from(raw) {
            Some(v) => self.add(name, &v),
            None => self.dropped.push(format!(
                "label {PREFIX}/{name} left out: {raw:?} has nothing a label value can hold"
            )),
        }
    }

    /// A version (`13.0`, `6.5`) as `NAME`, and, when it starts with two numbers, those apart as
    /// `NAME.major` and `NAME.minor`: nodeAffinity's `Gt` and `Lt` compare integers only, so
    /// `13.0` itself cannot be compared (GFD splits its versions the same way:
    /// `nvidia.com/cuda.driver-version.major`, `.minor`).
    fn add_version(&mut self, name: &str, value: &str) {
        self.add_host(name, value);
        let mut parts = value.split('.').map(|p| p.parse::<u64>().ok());
        if let (Some(Some(major)), Some(Some(minor))) = (parts.next(), parts.next()) {
            self.add(&format!("{name}.major"), &major.to_string());
            self.add(&format!("{name}.minor"), &minor.to_string());
        }
    }
}

/// `<v>.product`: the GPUs' one product name; on a host whose GPUs are of several products,
/// `<v>.product=mixed` and one `<v>.product.<name>=<count>` per product, so a pod can still
/// select "has an RTX 4080" (`Exists` on that label) and how many.
fn product_labels(l: &mut Labels, v: &VendorEntry) {
    let name = v.vendor.as_str();
    // Counted by label value: two names that differ only in what a label cannot hold
    // (`A/B`, `A B`) are one product to a selector, never two lines of one label.
    let mut counts: Vec<(String, usize)> = Vec::new();
    for p in v.devices.iter().filter_map(|d| d.name.as_deref()) {
        let Some(value) = value_from(p) else {
            l.dropped.push(format!(
                "label {PREFIX}/{name}.product left out: {p:?} has nothing a label value can hold"
            ));
            continue;
        };
        match counts.iter_mut().find(|(n, _)| *n == value) {
            Some((_, c)) => *c += 1,
            None => counts.push((value, 1)),
        }
    }
    match counts.as_slice() {
        [(one, count)] if *count == v.devices.len() => l.add(&format!("{name}.product"), one),
        many => {
            // One product beside GPUs without a name is not "mixed": the others may be the same.
            if many.len() > 1 {
                l.add(&format!("{name}.product"), "mixed");
            }
            for (value, count) in many {
                l.add(&format!("{name}.product.{value}"), &count.to_string());
            }
        }
    }
}

/// The labels for a report, and a sentence for each label left out.
pub fn labels(report: &Report) -> (Vec<Label>, Vec<String>) {
    let mut l = Labels {
        out: Vec::new(),
        dropped: Vec::new(),
    };
    for v in &report.vendors {
        vendor_labels(&mut l, v);
    }
    if let Some(m) = &report.host.machine {
        l.add_host("machine", m);
    }
    l.add("doctor.problems", &report.doctor.problems.to_string());
    l.add("doctor.warnings", &report.doctor.warnings.to_string());
    (l.out, l.dropped)
}

/// One value shared by every device, or `None`.
fn shared<'a>(values: impl Iterator<Item = Option<&'a String>>) -> Option<&'a String> {
    let mut first: Option<&String> = None;
    for v in values {
        let v = v?;
        match first {
            None => first = Some(v),
            Some(f) if f != v => return None,
            Some(_) => {}
        }
    }
    first
}

fn vendor_labels(l: &mut Labels, v: &VendorEntry) {
    let name = v.vendor.as_str();
    l.add(&format!("{name}.tier"), v.tier.as_deref().unwrap_or("none"));
    // Cards no driver is bound to: said only where the host has some, so other hosts' labels
    // are as they were.
    if !v.unbound.is_empty() {
        l.add(
            &format!("{name}.unbound.count"),
            &v.unbound.len().to_string(),
        );
    }
    if v.devices.is_empty() {
        return;
    }
    l.add(&format!("{name}.present"), "true");
    l.add(&format!("{name}.count"), &v.devices.len().to_string());
    product_labels(l, v);
    if let Some(g) = shared(v.devices.iter().map(|d| d.generation.as_ref())) {
        l.add_host(&format!("{name}.generation"), &g.to_lowercase());
    }
    chip::chip_labels(l, v);
    if let Some(t) = shared(v.devices.iter().map(|d| d.target.as_ref())) {
        l.add_host(&format!("{name}.target"), t);
    }
    if let Some(p) = shared(v.devices.iter().map(|d| d.platform.as_ref())) {
        l.add_host(&format!("{name}.platform"), &p.to_lowercase());
    }
    requirement_labels(l, v);
    driver_labels(l, v);
}

/// The combined requirement, component by component: `<vendor>.<component>` for a choice,
/// `.min` and `.max` for a range; `<vendor>.requirement=conflict` when the GPUs conflict.
fn requirement_labels(l: &mut Labels, v: &VendorEntry) {
    let name = v.vendor.as_str();
    let r = &v.requirement;
    if r.gpus.is_empty() {
        return;
    }
    // A GPU no source lists: nothing is known of what the host needs, so no stack is said to
    // be "combined" (unknown is not "any").
    if r.gpus.iter().any(|g| g.unknown.is_some()) {
        l.add(&format!("{name}.requirement"), "unknown");
        return;
    }
    let Some(combined) = &r.combined else {
        l.add(&format!("{name}.requirement"), "conflict");
        return;
    };
    l.add(&format!("{name}.requirement"), "combined");
    for c in &combined.constraints {
        // `nvidia-driver-branch` is `nvidia.driver-branch`; `kernel` stays `kernel`.
        let comp = c
            .component
            .strip_prefix(&format!("{name}-"))
            .unwrap_or(&c.component);
        match c.kind {
            Kind::Choice => {
                let value = match c.allowed.as_slice() {
                    [] => "any".to_string(),
                    [one] => one.clone(),
                    many => many.join("-or-"),
                };
                l.add(&format!("{name}.{comp}.required"), &value);
            }
            Kind::Range => {
                if let Some(min) = &c.min {
                    l.add_version(&format!("{name}.{comp}.min"), min);
                }
                if let Some(max) = &c.max {
                    l.add_version(&format!("{name}.{comp}.max"), max);
                }
            }
        }
    }
}

fn driver_labels(l: &mut Labels, v: &VendorEntry) {
    let name = v.vendor.as_str();
    let d = &v.driver;
    l.add(&format!("{name}.driver"), &d.state);
    if let Some(version) = &d.version {
        l.add_host(&format!("{name}.driver.version"), version);
        if let Some((major, _)) = version.split_once('.') {
            l.add_host(&format!("{name}.driver.major"), major);
        }
    }
    if let Some(m) = &d.kernel_module {
        l.add(&format!("{name}.driver.kernel-module"), m);
    }
    if let Some(cuda) = d
        .cuda_ceiling
        .as_deref()
        .filter(|c| *c != crate::model::UNKNOWN)
    {
        l.add_version(&format!("{name}.cuda.max"), cuda);
    }
    if !d.bound.is_empty() {
        let drivers = shared(d.bound.iter().map(|b| b.driver.as_ref()));
        let bound = match drivers {
            Some(one) => one.as_str(),
            None if d.bound.iter().all(|b| b.driver.is_none()) => "none",
            None => "mixed",
        };
        l.add_host(&format!("{name}.driver.bound"), bound);
        let needs: Option<Vec<bool>> = d.bound.iter().map(|b| b.needs_force_probe).collect();
        if let Some(needs) = needs {
            let any = needs.iter().any(|n| *n);
            l.add(&format!("{name}.force-probe.needed"), &any.to_string());
        }
    }
    l.add(&format!("{name}.driver.fits"), d.fits.as_str());
}

/// The feature file: a header, the expiry directive (`now` plus [`lifetime`] of `every`, the
/// seconds of `report --every` when it writes again), the labels.
pub fn render(labels: &[Label], now: u64, every: Option<u64>) -> Result<String, NfdError> {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Written by gpuctl report --format nfd ({}); see docs/fleet.md#labels.",
        crate::model::SCHEMA
    );
    let _ = writeln!(
        s,
        "# +expiry-time={}",
        rfc3339(now.saturating_add(lifetime(every)).min(LAST_RFC3339))
    );
    for l in labels {
        let _ = writeln!(s, "{}={}", l.name, l.value);
    }
    if s.len() > MAX_FILE_BYTES {
        return Err(NfdError::TooLarge { bytes: s.len() });
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::{EXPIRY_SECS, lifetime, render};
    use rstest::rstest;

    /// The labels outlive the next write by a period at least: an hour for a single write or a
    /// short `--every`, two periods for a long one; a period too long for RFC 3339 still writes
    /// a time NFD parses.
    #[rstest]
    #[case(None, EXPIRY_SECS)]
    #[case(Some(300), EXPIRY_SECS)]
    #[case(Some(1800), 3600)]
    #[case(Some(3600), 7200)]
    #[case(Some(7200), 14_400)]
    #[case(Some(u64::MAX), u64::MAX)]
    fn the_expiry_covers_the_next_write_with_margin(#[case] every: Option<u64>, #[case] secs: u64) {
        assert_eq!(lifetime(every), secs);
        if let Some(e) = every {
            assert!(lifetime(every) >= e.saturating_add(e.min(EXPIRY_SECS / 2)));
        }
    }

    #[rstest]
    #[case(None, "1970-01-01T01:00:00Z")]
    #[case(Some(7200), "1970-01-01T04:00:00Z")]
    #[case(Some(u64::MAX), "9999-12-31T23:59:59Z")]
    fn the_directive_says_that_time(#[case] every: Option<u64>, #[case] when: &str) {
        let text = render(&[], 0, every).unwrap_or_default();
        assert!(text.contains(&format!("# +expiry-time={when}\n")), "{text}");
    }
}
