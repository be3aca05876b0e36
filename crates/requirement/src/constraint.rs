//! Components of a driver stack and the constraints a GPU puts on them.

use std::borrow::Cow;

use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};
use thiserror::Error;

use super::Version;

/// Whether one value of a component serves the whole host or each device picks its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// One value for every GPU of the host (NVIDIA's kernel module, the ROCm release).
    Host,
    /// Each device binds its own (Intel's i915 or xe): checked per GPU, never combined.
    Device,
}

/// A named part of a driver stack, with the words messages use for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Component {
    /// The stable key matching constraints and stack entries (`kernel`, `rocm`).
    pub key: &'static str,
    /// The noun in descriptions: `kernel module`, `driver branch`, `ROCm`, `Linux kernel`.
    pub noun: &'static str,
    /// The short noun in reasons: `kernel module`, `branch`, `ROCm`, `kernel`.
    pub short: &'static str,
    /// A choice's values, in the order a conflict names them; empty for a versioned component.
    pub values: &'static [&'static str],
    /// Whether the value is the host's or each device's.
    pub scope: Scope,
}

impl Serialize for Component {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.key)
    }
}

/// One acceptable value of a choice, with what the stack needs besides when it is the one
/// (Intel's `xe` from a later kernel than `i915`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Alternative {
    /// The value (`open`, `xe`).
    pub value: Cow<'static, str>,
    /// Version constraints that hold only with this value.
    pub needs: Vec<Constraint>,
    /// What else to know, for people (`xe.force_probe=7d55 before 6.11`).
    pub note: Option<String>,
    /// The kernel parameters without which this value does not bind the device, when the
    /// vendor's sources say so; checked against the stack's
    /// settings ([`Stack::has_setting`](super::Stack::has_setting)), never shown in `describe` (the note
    /// says it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asks: Option<Asks>,
}

/// Kernel parameters a value binds the device only with (Intel's `i915.force_probe=56c0`, for
/// a GPU whose driver release gates it behind `.require_force_probe`): a stock kernel, which
/// sets none, does not bind it, so a stack without them does not fit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Asks {
    /// Every setting needed, as the vendor names them and a stack's
    /// [`KERNEL_PARAMETERS`](super::KERNEL_PARAMETERS) spec gives them (`i915.force_probe=56c0`).
    pub settings: Vec<String>,
    /// The Linux kernel release from which the value binds the device with none, when a
    /// source says; `None`: every release read asks for them.
    pub unasked_from: Option<Version>,
    /// The vendor's sentence for a stack without them, naming the remedy (`i915 binds 56c0
    /// only with i915.force_probe=56c0 ...`).
    pub why: String,
}

impl Alternative {
    /// A value with nothing further needed.
    pub fn plain(value: impl Into<Cow<'static, str>>) -> Alternative {
        Alternative {
            value: value.into(),
            needs: Vec::new(),
            note: None,
            asks: None,
        }
    }

    fn phrase(&self, component: &Component) -> String {
        let mut s = format!("{} {}", self.value, component.noun);
        let mut extra: Vec<String> = self.needs.iter().map(Constraint::describe).collect();
        extra.extend(self.note.clone());
        if !extra.is_empty() {
            s.push_str(" (");
            s.push_str(&extra.join("; "));
            s.push(')');
        }
        s
    }
}

/// A range whose bounds leave no version.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{noun} {min} is above {max}: no version can satisfy that")]
pub struct RangeError {
    /// The component's noun.
    pub noun: &'static str,
    /// The lower bound.
    pub min: Version,
    /// The upper bound.
    pub max: Version,
}

/// A restriction on one component.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Constraint {
    /// One of `allowed`; an empty list allows any value.
    Choice {
        /// The component.
        component: Component,
        /// The acceptable values, in preference order.
        allowed: Vec<Alternative>,
    },
    /// A version from `min` to `max`, both inclusive; `max` includes its point releases.
    Range {
        /// The component.
        component: Component,
        /// The oldest acceptable version.
        min: Option<Version>,
        /// The newest acceptable release line.
        max: Option<Version>,
    },
}

impl Constraint {
    /// A choice among `allowed` (none: any value).
    pub fn choice(component: Component, allowed: Vec<Alternative>) -> Constraint {
        Constraint::Choice { component, allowed }
    }

    /// A version range, or why the bounds leave nothing.
    pub fn range(
        component: Component,
        min: Option<Version>,
        max: Option<Version>,
    ) -> Result<Constraint, RangeError> {
        if let (Some(lo), Some(hi)) = (min, max)
            && !lo.within_max(&hi)
        {
            return Err(RangeError {
                noun: component.noun,
                min: lo,
                max: hi,
            });
        }
        Ok(Constraint::Range {
            component,
            min,
            max,
        })
    }

    /// The same with no value asking for settings ([`Asks`]): the versions alone, as a
    /// check of the kernel's release reads it.
    #[must_use]
    pub fn without_asks(&self) -> Constraint {
        let mut c = self.clone();
        if let Constraint::Choice { allowed, .. } = &mut c {
            for a in allowed {
                a.asks = None;
            }
        }
        c
    }

    /// The component constrained.
    pub fn component(&self) -> &Component {
        match self {
            Constraint::Choice { component, .. } | Constraint::Range { component, .. } => component,
        }
    }

    /// The constraint in words: `open kernel module`, `ROCm 6.2 or newer`, `any driver branch`.
    pub fn describe(&self) -> String {
        match self {
            Constraint::Choice { component, allowed } if allowed.is_empty() => {
                format!("any {}", component.noun)
            }
            Constraint::Choice { component, allowed } => allowed
                .iter()
                .map(|a| a.phrase(component))
                .collect::<Vec<_>>()
                .join(" or "),
            Constraint::Range {
                component,
                min,
                max,
            } => {
                let noun = component.noun;
                match (min, max) {
                    (Some(lo), Some(hi)) => format!("{noun} {lo} to {hi}"),
                    (Some(lo), None) => format!("{noun} {lo} or newer"),
                    (None, Some(hi)) => format!("{noun} {hi} or older"),
                    (None, None) => format!("any {noun}"),
                }
            }
        }
    }
}

impl Serialize for Constraint {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Constraint", 6)?;
        st.serialize_field("component", self.component().key)?;
        match self {
            Constraint::Choice { component, allowed } => {
                st.serialize_field("kind", "choice")?;
                st.serialize_field("scope", &component.scope)?;
                st.serialize_field("allowed", allowed)?;
            }
            Constraint::Range {
                component,
                min,
                max,
            } => {
                st.serialize_field("kind", "range")?;
                st.serialize_field("scope", &component.scope)?;
                st.serialize_field("min", min)?;
                st.serialize_field("max", max)?;
            }
        }
        st.serialize_field("describe", &self.describe())?;
        st.end()
    }
}
