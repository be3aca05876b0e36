//! `gpuctl fleet` over what a cluster already holds: `kubectl get nodes -o json`, a Kubernetes
//! NodeList (`kind: NodeList`, or the `kind: List` of Nodes kubectl prints), each node's
//! `gpuctl.io/` labels as `gpuctl report --format nfd` wrote them ([`crate::nfd`]) read back
//! into the summary a report gives (docs/fleet.md#planning-from-node-labels). Labels say less
//! than a report: no GPU ids, no doctor details, no reason for a driver that does not fit
//! ([`LABELS_CANNOT_TELL`]); what they do not say stays unknown, never a guess.

use std::collections::BTreeMap;
use std::sync::Arc;

use gpuctl_core::plugin::requirement::{Component, Fit, LINUX_KERNEL, Version};
use serde::Deserialize;
use thiserror::Error;

use crate::model::{ConstraintEntry, Kind};
use crate::nfd::PREFIX;
use crate::stack::describe;
use crate::summary::{DoctorNote, HostSummary, VendorSummary};

/// What a plan from labels cannot tell that one from reports can, one sentence each.
pub const LABELS_CANNOT_TELL: [&str; 5] = [
    "per-GPU ids (labels give a count and a shared product name), so no release floor is said, no release is judged (no release is named per group, no host is found below its group's stack) and --cuda is unknown for each host",
    "why a driver does not fit (labels say driver.fits=no, not the verdict's reason)",
    "which doctor checks failed (labels give only doctor.problems and doctor.warnings counts), so a CDI spec written for another driver is not told apart from other problems",
    "the GPUs' conflicts in words and which GPUs no source lists (labels say requirement=conflict or unknown)",
    "the machine id, so two nodes reported under one name are not told apart (Kubernetes names nodes uniquely)",
];

/// Components whose labels are constraints: `<vendor>.<key without "vendor-">.required`,
/// `.min`, `.max`, as [`crate::nfd`] writes them.
const COMPONENTS: [&Component; 4] = [
    &gpuctl_nvidia::model::KERNEL_MODULE,
    &gpuctl_nvidia::model::DRIVER_BRANCH,
    &gpuctl_amd::requirement::ROCM,
    &LINUX_KERNEL,
];

/// Why a NodeList could not be planned: the file, the token, the remedy.
#[derive(Debug, Error)]
pub enum NodeListError {
    /// Not JSON at all.
    #[error(
        "{file}: not JSON ({reason}); give the output of 'kubectl get nodes -o json' or files 'gpuctl report' wrote"
    )]
    NotJson {
        /// The file (`-` for stdin).
        file: String,
        /// serde's words.
        reason: String,
    },
    /// A Kubernetes object of another kind.
    #[error(
        "{file}: its kind is {kind:?}, not a NodeList; give the output of 'kubectl get nodes -o json'"
    )]
    WrongKind {
        /// The file.
        file: String,
        /// The kind it has.
        kind: String,
    },
    /// Shaped unlike a NodeList (no `items`, an item without `metadata.name`, a label not a
    /// string).
    #[error("{file}: not a NodeList as 'kubectl get nodes -o json' prints it ({reason})")]
    Shape {
        /// The file.
        file: String,
        /// serde's words.
        reason: String,
    },
    /// An item of another kind than Node.
    #[error(
        "{file}: item {index} is a {kind:?}, not a Node; give the output of 'kubectl get nodes -o json'"
    )]
    NotANode {
        /// The file.
        file: String,
        /// Its place in `items`.
        index: usize,
        /// Its kind.
        kind: String,
    },
    /// A gpuctl.io label whose value is not one gpuctl writes.
    #[error(
        "{file}: node {node:?}: label {label}={value:?} is not {expected}, as 'gpuctl report --format nfd' writes it; relabel the node from a gpuctl report"
    )]
    BadLabel {
        /// The file.
        file: String,
        /// The node.
        node: String,
        /// The label's name.
        label: String,
        /// Its value.
        value: String,
        /// What it should be, in words.
        expected: &'static str,
    },
}

#[derive(Deserialize)]
struct List {
    items: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    #[serde(default)]
    kind: Option<String>,
    metadata: Meta,
}

#[derive(Deserialize)]
struct Meta {
    name: String,
    #[serde(default)]
    labels: BTreeMap<String, String>,
}

/// True when `kind` is one `kubectl get nodes -o json` prints.
pub fn is_node_list(kind: &str) -> bool {
    kind == "NodeList" || kind == "List"
}

/// The hosts of a NodeList of `kind`, read from `file`, and the nodes without gpuctl labels.
pub fn hosts(
    bytes: &[u8],
    file: &str,
    kind: &str,
) -> Result<(Vec<HostSummary>, Vec<String>), NodeListError> {
    if !is_node_list(kind) {
        return Err(NodeListError::WrongKind {
            file: file.into(),
            kind: kind.into(),
        });
    }
    let list: List = serde_json::from_slice(bytes).map_err(|e| NodeListError::Shape {
        file: file.into(),
        reason: e.to_string(),
    })?;
    let mut out = Vec::new();
    let mut unlabelled = Vec::new();
    for (index, item) in list.items.into_iter().enumerate() {
        if let Some(k) = item.kind.filter(|k| k != "Node") {
            return Err(NodeListError::NotANode {
                file: file.into(),
                index,
                kind: k,
            });
        }
        let node = Node {
            file,
            name: &item.metadata.name,
            labels: &item.metadata.labels,
        };
        if !item
            .metadata
            .labels
            .keys()
            .any(|k| k.starts_with(&format!("{PREFIX}/")))
        {
            unlabelled.push(item.metadata.name.clone());
            continue;
        }
        out.push(node.summary()?);
    }
    Ok((out, unlabelled))
}

struct Node<'a> {
    file: &'a str,
    name: &'a str,
    labels: &'a BTreeMap<String, String>,
}

impl Node<'_> {
    fn get(&self, name: &str) -> Option<(String, &str)> {
        let full = format!("{PREFIX}/{name}");
        self.labels.get(&full).map(|v| (full, v.as_str()))
    }

    fn bad(&self, label: String, value: &str, expected: &'static str) -> NodeListError {
        NodeListError::BadLabel {
            file: self.file.into(),
            node: self.name.into(),
            label,
            value: value.into(),
            expected,
        }
    }

    /// The label's value when it is one of `allowed`.
    fn word<'v>(
        &'v self,
        name: &str,
        allowed: &[&str],
        expected: &'static str,
    ) -> Result<Option<&'v str>, NodeListError> {
        match self.get(name) {
            None => Ok(None),
            Some((_, v)) if allowed.contains(&v) => Ok(Some(v)),
            Some((l, v)) => Err(self.bad(l, v, expected)),
        }
    }

    fn count(&self, name: &str) -> Result<Option<usize>, NodeListError> {
        match self.get(name) {
            None => Ok(None),
            Some((l, v)) => v
                .parse()
                .map(Some)
                .map_err(|_| self.bad(l, v, "a count (digits)")),
        }
    }

    fn summary(&self) -> Result<HostSummary, NodeListError> {
        let mut vendors = Vec::new();
        let mut names: Vec<&str> = self
            .labels
            .keys()
            .filter_map(|k| k.strip_prefix(&format!("{PREFIX}/"))?.strip_suffix(".tier"))
            .collect();
        names.dedup();
        for v in names {
            if let Some(s) = self.vendor(v)? {
                vendors.push(s);
            }
        }
        let mut doctor = Vec::new();
        for (status, label) in [
            ("problem", "doctor.problems"),
            ("warning", "doctor.warnings"),
        ] {
            if let Some(n) = self.count(label)?.filter(|n| *n > 0) {
                doctor.push(Arc::new(DoctorNote {
                    code: label.into(),
                    status: status.into(),
                    fact: format!("{n} {status}(s) on the node; labels give only the count: run 'gpuctl doctor' there, or plan its report"),
                }));
            }
        }
        Ok(HostSummary {
            name: self.name.into(),
            reported_name: true,
            machine_id: None,
            vendors,
            stale_specs: Vec::new(),
            doctor,
            from_labels: true,
        })
    }

    fn vendor(&self, v: &str) -> Result<Option<VendorSummary>, NodeListError> {
        let tier = self
            .word(
                &format!("{v}.tier"),
                &["cdi", "hook", "raw", "none"],
                "cdi, hook, raw or none",
            )?
            .unwrap_or("none");
        if self
            .word(&format!("{v}.present"), &["true"], "true")?
            .is_none()
        {
            return Ok(None);
        }
        let count = self.count(&format!("{v}.count"))?.unwrap_or(0);
        let product = self
            .get(&format!("{v}.product"))
            .map(|(_, p)| p.to_string());
        let requirement = self
            .word(
                &format!("{v}.requirement"),
                &["combined", "conflict", "unknown"],
                "combined, conflict or unknown",
            )?
            .unwrap_or("unknown");
        let stack = match requirement {
            "combined" => Some(self.constraints(v)?),
            _ => None,
        };
        let fits = match self.word(
            &format!("{v}.driver.fits"),
            &["yes", "no", "unknown"],
            "yes, no or unknown",
        )? {
            Some("yes") => Fit::Yes,
            Some("no") => Fit::No,
            _ => Fit::Unknown,
        };
        let version = self
            .get(&format!("{v}.driver.version"))
            .map(|(_, r)| r.to_string());
        let module = self.word(
            &format!("{v}.driver.kernel-module"),
            &["open", "proprietary"],
            "open or proprietary",
        )?;
        // NVIDIA's `--driver` spec, as its report's `driver.specs` names the loaded stack.
        let specs = match (module, &version) {
            (Some(m), Some(r)) => vec![format!("{m}:{r}")],
            _ => Vec::new(),
        };
        Ok(Some(VendorSummary {
            vendor: v.into(),
            // Without a shared product name no two nodes are known to have the same GPUs.
            gpus: match &product {
                Some(p) => format!("{count}x {p}"),
                None => format!("{count}x GPUs of no shared name on {}", self.name),
            },
            conflicts: if requirement == "conflict" {
                vec!["the node's labels say requirement=conflict".into()]
            } else {
                Vec::new()
            },
            stack,
            driver_version: version,
            why: (fits != Fit::Yes).then(|| {
                format!(
                    "the node's label says driver.fits={}; labels do not say why",
                    fits.as_str()
                )
            }),
            fits,
            cuda: self
                .get(&format!("{v}.cuda.max"))
                .map(|(_, c)| c.to_string()),
            usable: tier != "none",
            reason: format!("the node's label says tier={tier}"),
            ids: Vec::new(),
            specs,
            unknown: if requirement == "unknown" {
                vec!["the node's labels say requirement=unknown (a GPU no source lists)".into()]
            } else {
                Vec::new()
            },
        }))
    }

    /// The combined requirement's host-scoped constraints, in the order the report holds them.
    fn constraints(&self, v: &str) -> Result<Vec<ConstraintEntry>, NodeListError> {
        let mut out = Vec::new();
        for c in COMPONENTS {
            // As nfd.rs names them: `nvidia-driver-branch` is `nvidia.driver-branch`, `rocm`
            // and `kernel` keep their key; another vendor's component finds no label.
            let base = c
                .key
                .strip_prefix(v)
                .and_then(|k| k.strip_prefix('-'))
                .unwrap_or(c.key);
            let mut e = ConstraintEntry {
                component: c.key.into(),
                noun: c.noun.into(),
                kind: if c.values.is_empty() {
                    Kind::Range
                } else {
                    Kind::Choice
                },
                scope: "host".into(),
                allowed: Vec::new(),
                min: None,
                max: None,
                describe: String::new(),
            };
            if e.kind == Kind::Choice {
                let Some((l, value)) = self.get(&format!("{v}.{base}.required")) else {
                    continue;
                };
                if value != "any" {
                    for one in value.split("-or-") {
                        if !c.values.contains(&one) {
                            return Err(self.bad(l, value, "any, or values joined by -or-"));
                        }
                        e.allowed.push(one.into());
                    }
                }
            } else {
                for (end, slot) in [("min", &mut e.min), ("max", &mut e.max)] {
                    if let Some((l, value)) = self.get(&format!("{v}.{base}.{end}")) {
                        Version::parse(value).map_err(|_| self.bad(l, value, "a version"))?;
                        *slot = Some(value.into());
                    }
                }
                if e.min.is_none() && e.max.is_none() {
                    continue;
                }
            }
            e.describe = describe(&e);
            out.push(e);
        }
        Ok(out)
    }
}
