//! The GPU selection language: `all`, `none`, vendor names, `vendor:N`, `vendor:NAME`, comma
//! lists.
//!
//! Normalization follows the Python tool gpuctl replaces token for token: split on commas,
//! strip (Python's notion of white space) and lowercase each piece, drop empty pieces, check
//! every token even beside `all` (the first bad one is reported), drop duplicates, let a whole
//! vendor absorb its indexes, and sort in canonical vendor order with indexes ascending.
//! One deliberate addition (docs/selector.md#device-names): after `vendor:`, a CDI device name
//! that is not all digits is kept in its own case, since CDI names are case-sensitive; whether
//! it names a device is decided on the tier that serves the vendor.

use std::collections::HashSet;

use thiserror::Error;

use crate::text::{closest, is_ascii_digits, py_repr, py_strip};
use gpuctl_cdi::grammar::check_device_name;

/// One device of a vendor, as a selector names it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Pick {
    /// `vendor:N`: digits only. On a CDI tier the device named `N`, elsewhere the N-th device.
    Index(u32),
    /// `vendor:NAME`: any other CDI device name, in the case it was written. Only a CDI tier
    /// can serve it.
    Name(String),
}

impl Pick {
    /// The CDI device name this pick asks for (`3`, `GPU-e008...`).
    pub fn cdi_name(&self) -> String {
        match self {
            Pick::Index(i) => i.to_string(),
            Pick::Name(n) => n.clone(),
        }
    }
}

/// A normalized selection.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Selection {
    /// Nothing: no arguments, no probing.
    None,
    /// Every vendor the host can serve.
    All,
    /// These grants, in canonical order: `(vendor, None)` for a whole vendor, `(vendor,
    /// Some(pick))` for one device (indexes ascending, then names in byte order). A vendor
    /// appears either whole or with devices, never both.
    Grants(Vec<(String, Option<Pick>)>),
}

/// A selection that cannot be understood. Every variant names the offending token.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SelectorError {
    /// The part before `:` is not a registered vendor.
    #[error(
        "unknown GPU vendor {} in the selection{}; expected 'all', 'true', 'none', 'false' or a vendor name ({})",
        py_repr(vendor),
        closest(vendor, known.iter().map(String::as_str).chain(RESERVED_WORDS))
            .map(|n| format!(" (did you mean '{n}'?)"))
            .unwrap_or_default(),
        known.join(", ")
    )]
    UnknownVendor {
        /// The vendor part, lowercased.
        vendor: String,
        /// The registered vendor names, in canonical order.
        known: Vec<String>,
    },

    /// The part after `:` is neither a non-negative integer nor a CDI device name.
    #[error(
        "bad device index in {}; expected '{vendor}' or '{vendor}:<non-negative integer>', or on a CDI tier '{vendor}:<device name>' (letters, digits, '_', '.', ':', '-', starting and ending with a letter or digit)",
        py_repr(token)
    )]
    BadIndex {
        /// The whole token.
        token: String,
        /// Its vendor.
        vendor: String,
    },

    /// The index does not fit in 32 bits (Python takes any size; no host has that many GPUs).
    #[error(
        "device index in {} is too large; an index is at most {}",
        py_repr(token),
        u32::MAX
    )]
    IndexTooLarge {
        /// The whole token.
        token: String,
    },

    /// `none` or `false` written next to something it would contradict.
    #[error(
        "{} selects no GPU and cannot be combined with {}; write it alone, or leave it out",
        py_repr(word),
        py_repr(other)
    )]
    NoneCombined {
        /// `none` or `false`.
        word: String,
        /// One of the other tokens.
        other: String,
    },
}

/// Normalizes selector values (each may hold a comma list) against the registered vendor names,
/// given in canonical order.
pub fn normalize<S: AsRef<str>>(
    values: &[S],
    vendors: &[&str],
) -> Result<Selection, SelectorError> {
    let tokens: Vec<String> = values
        .iter()
        .flat_map(|v| v.as_ref().split(','))
        .map(|piece| lower_vendor_part(py_strip(piece)))
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.is_empty() {
        return Ok(Selection::None);
    }
    let is_all = |t: &str| t == "all" || t == "true";
    let is_none = |t: &str| t == "none" || t == "false";
    // Found once, not per `none`: a command line of many tokens must stay linear.
    let first_other = tokens.iter().find(|t| !is_none(t));
    let mut grants: Vec<(String, Option<Pick>)> = Vec::new();
    let mut seen: HashSet<(String, Option<Pick>)> = HashSet::new();
    for token in &tokens {
        if is_all(token) {
            continue;
        }
        if is_none(token) {
            if let Some(other) = first_other {
                return Err(SelectorError::NoneCombined {
                    word: token.clone(),
                    other: other.clone(),
                });
            }
            continue;
        }
        let grant = parse_token(token, vendors)?;
        if seen.insert(grant.clone()) {
            grants.push(grant);
        }
    }
    if tokens.iter().any(|t| is_all(t)) {
        return Ok(Selection::All);
    }
    if grants.is_empty() {
        return Ok(Selection::None);
    }
    let whole: HashSet<String> = grants
        .iter()
        .filter(|(_, i)| i.is_none())
        .map(|(v, _)| v.clone())
        .collect();
    grants.retain(|(v, i)| i.is_none() || !whole.contains(v));
    let position = |v: &str| vendors.iter().position(|k| *k == v).unwrap_or(usize::MAX);
    // Whole vendor, then indexes ascending, then names in byte order.
    grants.sort_by(|(va, a), (vb, b)| (position(va), rank(a)).cmp(&(position(vb), rank(b))));
    Ok(Selection::Grants(grants))
}

/// A pick's place among its vendor's: whole vendor, then indexes, then names.
fn rank(pick: &Option<Pick>) -> (u8, u32, &str) {
    match pick {
        None => (0, 0, ""),
        Some(Pick::Index(i)) => (1, *i, ""),
        Some(Pick::Name(n)) => (2, 0, n.as_str()),
    }
}

/// The words of the language besides vendor names, for did-you-mean.
const RESERVED_WORDS: [&str; 4] = ["all", "true", "none", "false"];

/// Lowercases the vendor part of a token (up to the first `:`) and keeps the rest as written:
/// vendor words ignore case, CDI device names do not.
fn lower_vendor_part(token: &str) -> String {
    match token.split_once(':') {
        Some((vendor, rest)) => format!("{}:{rest}", vendor.to_lowercase()),
        None => token.to_lowercase(),
    }
}

fn parse_token(token: &str, vendors: &[&str]) -> Result<(String, Option<Pick>), SelectorError> {
    let (vendor, rest) = match token.split_once(':') {
        Some((v, r)) => (v, Some(r)),
        None => (token, None),
    };
    if !vendors.contains(&vendor) {
        return Err(SelectorError::UnknownVendor {
            vendor: vendor.to_string(),
            known: vendors.iter().map(|v| v.to_string()).collect(),
        });
    }
    let Some(rest) = rest else {
        return Ok((vendor.to_string(), None));
    };
    if !is_ascii_digits(rest) {
        if check_device_name(rest).is_ok() {
            return Ok((vendor.to_string(), Some(Pick::Name(rest.to_string()))));
        }
        return Err(SelectorError::BadIndex {
            token: token.to_string(),
            vendor: vendor.to_string(),
        });
    }
    let digits = rest.trim_start_matches('0');
    let index = if digits.is_empty() {
        Ok(0)
    } else {
        digits.parse::<u32>()
    };
    match index {
        Ok(i) => Ok((vendor.to_string(), Some(Pick::Index(i)))),
        Err(_) => Err(SelectorError::IndexTooLarge {
            token: token.to_string(),
        }),
    }
}

#[cfg(test)]
#[path = "selector_tests.rs"]
mod tests;
