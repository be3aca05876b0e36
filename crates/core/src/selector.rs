//! The GPU selection language: `all`, `none`, vendor names, `vendor:N`, comma lists.
//!
//! Normalization follows the Python tool gpuctl replaces token for token: split on commas,
//! strip (Python's notion of white space) and lowercase each piece, drop empty pieces, check
//! every token even beside `all` (the first bad one is reported), drop duplicates, let a whole
//! vendor absorb its indexes, and sort in canonical vendor order with indexes ascending.

use std::collections::HashSet;

use thiserror::Error;

use crate::text::{is_ascii_digits, py_repr, py_str_list, py_strip};

/// A normalized selection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    /// Nothing: no arguments, no probing.
    None,
    /// Every vendor the host can serve.
    All,
    /// These grants, in canonical order: `(vendor, None)` for a whole vendor, `(vendor,
    /// Some(n))` for one device. A vendor appears either whole or with indexes, never both.
    Grants(Vec<(String, Option<u32>)>),
}

/// A selection that cannot be understood. Every variant names the offending token.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SelectorError {
    /// The part before `:` is not a registered vendor.
    #[error(
        "unknown GPU vendor {} in the selection; expected 'all', 'true', 'none', 'false', or any of {}",
        py_repr(vendor),
        py_str_list(known)
    )]
    UnknownVendor {
        /// The vendor part, lowercased.
        vendor: String,
        /// The registered vendor names, in canonical order.
        known: Vec<String>,
    },

    /// The part after `:` is not a non-negative integer.
    #[error(
        "bad device index in {}; expected '{vendor}' or '{vendor}:<non-negative integer>'",
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
        .map(|piece| py_strip(piece).to_lowercase())
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.is_empty() {
        return Ok(Selection::None);
    }
    let is_all = |t: &str| t == "all" || t == "true";
    let is_none = |t: &str| t == "none" || t == "false";
    // Found once, not per `none`: a command line of many tokens must stay linear.
    let first_other = tokens.iter().find(|t| !is_none(t));
    let mut grants: Vec<(String, Option<u32>)> = Vec::new();
    let mut seen: HashSet<(String, Option<u32>)> = HashSet::new();
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
    grants.sort_by_key(|(v, i)| (position(v), i.map_or(-1, i64::from)));
    Ok(Selection::Grants(grants))
}

fn parse_token(token: &str, vendors: &[&str]) -> Result<(String, Option<u32>), SelectorError> {
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
        Ok(i) => Ok((vendor.to_string(), Some(i))),
        Err(_) => Err(SelectorError::IndexTooLarge {
            token: token.to_string(),
        }),
    }
}

#[cfg(test)]
#[path = "selector_tests.rs"]
mod tests;
