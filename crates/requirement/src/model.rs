//! The requirement value: whom it is for, its constraints, and its two sentences.

use std::borrow::Cow;

use super::Constraint;
use crate::FactValue;

/// What one GPU (or, combined, several) needs of its driver stack.
///
/// Made with [`Requirement::new`] and the `with_*` methods, or by
/// [`Requirement::intersect`]; read through its methods.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Requirement {
    pub(super) vendor: Cow<'static, str>,
    pub(super) vendor_id: u16,
    pub(super) device_id: Option<u16>,
    pub(super) name: Option<String>,
    pub(super) label: Option<String>,
    pub(super) constraints: Vec<Constraint>,
    pub(super) notes: Vec<String>,
    pub(super) facts: Vec<(&'static str, FactValue)>,
    pub(super) members: Vec<Requirement>,
    pub(super) unknown: Option<String>,
    pub(super) noun: Option<&'static str>,
}

impl Requirement {
    /// A requirement of a `vendor` GPU (`NVIDIA`, the name in sentences) with PCI vendor id
    /// `vendor_id`, with no constraint yet.
    pub fn new(vendor: impl Into<Cow<'static, str>>, vendor_id: u16) -> Requirement {
        Requirement {
            vendor: vendor.into(),
            vendor_id,
            ..Requirement::default()
        }
    }

    /// The same, for device `id`.
    #[must_use]
    pub fn with_device_id(mut self, id: u16) -> Requirement {
        self.device_id = Some(id);
        self
    }

    /// The same, carrying the GPU's name for messages (never used to decide anything).
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Requirement {
        self.name = Some(name.into());
        self
    }

    /// The same, with a label `who` shows before the id (a generation, an LLVM target).
    #[must_use]
    pub fn with_label(mut self, label: impl Into<String>) -> Requirement {
        self.label = Some(label.into());
        self
    }

    /// The same, with one more constraint (kept in order: `describe` and `why_not` follow it).
    #[must_use]
    pub fn with_constraint(mut self, constraint: Constraint) -> Requirement {
        self.constraints.push(constraint);
        self
    }

    /// The same, with a note for people (`unofficial: ...`).
    #[must_use]
    pub fn with_note(mut self, note: impl Into<String>) -> Requirement {
        self.notes.push(note.into());
        self
    }

    /// The same, for a device no source lists: `reason` (`unknown device: no source lists it`)
    /// is its description and why no driver stack can be said to satisfy it; unknown is never
    /// "any driver".
    #[must_use]
    pub fn with_unknown(mut self, reason: impl Into<String>) -> Requirement {
        self.unknown = Some(reason.into());
        self
    }

    /// The same, with what one device is called in `who` (`NPU`); `GPU` by default.
    #[must_use]
    pub fn with_noun(mut self, noun: &'static str) -> Requirement {
        self.noun = Some(noun);
        self
    }

    /// Why the device is unknown, when no source lists it.
    pub fn unknown(&self) -> Option<&str> {
        self.unknown.as_deref()
    }

    /// The same, with a fact of the vendor's own beside the constraints (NVIDIA's
    /// `generation`, `compute`), kept in order and shown in JSON under `key`. Facts never
    /// decide anything; a combination has only the facts its vendor gives it.
    #[must_use]
    pub fn with_fact(mut self, key: &'static str, value: impl Into<FactValue>) -> Requirement {
        self.facts.retain(|(k, _)| *k != key);
        self.facts.push((key, value.into()));
        self
    }

    /// The vendor's facts, in order.
    pub fn facts(&self) -> &[(&'static str, FactValue)] {
        &self.facts
    }

    /// The same, combining `members` (what [`Requirement::intersect`] makes; a vendor model
    /// that combines its own way hands its members over with this). `who` then names them.
    #[must_use]
    pub fn with_members(mut self, members: Vec<Requirement>) -> Requirement {
        self.members = members;
        self
    }

    /// The vendor's name in sentences.
    pub fn vendor(&self) -> &str {
        &self.vendor
    }

    /// The PCI vendor id.
    pub fn vendor_id(&self) -> u16 {
        self.vendor_id
    }

    /// The PCI device id, when the requirement is one device's.
    pub fn device_id(&self) -> Option<u16> {
        self.device_id
    }

    /// The GPU's name, when known.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The label (`Blackwell`, `gfx942`), when known.
    pub fn label(&self) -> Option<&str> {
        self.label.as_deref()
    }

    /// The constraints, in order.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// Notes for people.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// For a combination, the requirements it combines; empty otherwise.
    pub fn members(&self) -> &[Requirement] {
        &self.members
    }

    /// The constraint on the component with `key`, if any.
    pub fn constraint(&self, key: &str) -> Option<&Constraint> {
        self.constraints.iter().find(|c| c.component().key == key)
    }

    /// The same without the constraints each device decides for itself ([`Scope::Device`]):
    /// what a host as a whole must provide.
    ///
    /// [`Scope::Device`]: super::Scope::Device
    #[must_use]
    pub fn host_part(&self) -> Requirement {
        let mut r = self.clone();
        r.constraints
            .retain(|c| c.component().scope == super::Scope::Host);
        r
    }

    /// The constraints in words, joined with `, `: `open kernel module, driver branch 570 or
    /// newer`; `any driver` when there is none.
    pub fn describe(&self) -> String {
        if let Some(reason) = &self.unknown
            && self.constraints.is_empty()
        {
            return reason.clone();
        }
        // A combination with a member nothing is known of is not "any driver", nor only what
        // the known members need: each unknown member is named after the constraints.
        let unknown = self.members.iter().filter_map(|m| {
            m.unknown
                .as_deref()
                .map(|reason| format!("{}: {reason}", m.who()))
        });
        let parts: Vec<String> = self.constraints.iter().map(Constraint::describe).collect();
        let mut out = parts.join(", ");
        for line in unknown {
            if !out.is_empty() {
                out.push_str("; ");
            }
            out.push_str(&line);
        }
        if out.is_empty() {
            out.push_str("any driver");
        }
        out
    }

    /// Whom it is for: `Tesla V100 (Maxwell/Pascal/Volta, 10de:1db4)`, `AMD GPU (gfx942,
    /// 1002:74a1)` without a name, or every member's `who` joined with `, ` for a combination.
    pub fn who(&self) -> String {
        let mut out = String::new();
        self.write_who(&mut out);
        out
    }

    pub(super) fn write_who(&self, out: &mut String) {
        if !self.members.is_empty() {
            for (i, member) in self.members.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                member.write_who(out);
            }
            return;
        }
        // A defined but empty name stays empty, as the NVIDIA model has always printed it.
        match &self.name {
            Some(name) => out.push_str(name),
            None => {
                out.push_str(&self.vendor);
                out.push(' ');
                out.push_str(self.noun.unwrap_or("GPU"));
            }
        }
        let mut items = Vec::with_capacity(2);
        if let Some(label) = &self.label {
            items.push(label.clone());
        }
        if let Some(id) = self.device_id {
            items.push(format!("{:04x}:{id:04x}", self.vendor_id));
        }
        if !items.is_empty() {
            out.push_str(" (");
            out.push_str(&items.join(", "));
            out.push(')');
        }
    }
}
