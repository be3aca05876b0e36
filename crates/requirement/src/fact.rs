//! The value of a fact a vendor states about a device: carried by a [`crate::Requirement`]
//! into the requirement report, and by `detect`'s facts, so both print it the same way.

use serde::ser::{Serialize, Serializer};

/// A fact's value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FactValue {
    /// Words or an identifier.
    Text(String),
    /// A number.
    Number(u64),
    /// Yes or no.
    Flag(bool),
    /// Not known on this host (JSON `null`).
    Unknown,
}

impl Serialize for FactValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            FactValue::Text(t) => serializer.serialize_str(t),
            FactValue::Number(n) => serializer.serialize_u64(*n),
            FactValue::Flag(b) => serializer.serialize_bool(*b),
            FactValue::Unknown => serializer.serialize_none(),
        }
    }
}

impl FactValue {
    /// The value in words (`detect` text shows a fact so); `None` when it is unknown.
    pub fn text(&self) -> Option<String> {
        match self {
            FactValue::Text(t) => Some(t.clone()),
            FactValue::Number(n) => Some(n.to_string()),
            FactValue::Flag(b) => Some(b.to_string()),
            FactValue::Unknown => None,
        }
    }
}

impl From<String> for FactValue {
    fn from(t: String) -> Self {
        FactValue::Text(t)
    }
}

impl From<&str> for FactValue {
    fn from(t: &str) -> Self {
        FactValue::Text(t.to_string())
    }
}

impl From<u32> for FactValue {
    fn from(n: u32) -> Self {
        FactValue::Number(u64::from(n))
    }
}

impl From<bool> for FactValue {
    fn from(b: bool) -> Self {
        FactValue::Flag(b)
    }
}

impl<T: Into<FactValue>> From<Option<T>> for FactValue {
    fn from(v: Option<T>) -> Self {
        v.map_or(FactValue::Unknown, Into::into)
    }
}
