//! The CDI name grammar, as the CDI library's parser enforces it (not SPEC.md's prose: the
//! library sets no length limit and requires vendor and class to start with a letter).
//!
//! - vendor, class: `[A-Za-z]([A-Za-z0-9_.-]*[A-Za-z0-9])?`
//! - device name: `[A-Za-z0-9]([A-Za-z0-9_.:-]*[A-Za-z0-9])?`
//! - qualified name: `<vendor>/<class>=<name>`, split at the first `=` then the first `/`.

use thiserror::Error;

/// A name the CDI grammar rejects, worded as the CDI library words it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GrammarError {
    /// An empty part.
    #[error("invalid (empty) {0} name")]
    Empty(&'static str),
    /// A vendor or class that does not start with a letter.
    #[error("invalid {what} \"{name}\", should start with letter")]
    BadStart {
        /// "vendor" or "class".
        what: &'static str,
        /// The name.
        name: String,
    },
    /// A device name that does not start with a letter or digit.
    #[error("invalid name \"{0}\", should start with letter or digit")]
    BadNameStart(String),
    /// A character outside the allowed set.
    #[error("invalid character '{ch}' in {what} name \"{name}\"")]
    BadChar {
        /// "vendor", "class" or "device".
        what: &'static str,
        /// The character.
        ch: char,
        /// The name.
        name: String,
    },
    /// A name that does not end with a letter or digit.
    #[error("invalid {what} \"{name}\", should end with a letter or digit")]
    BadEnd {
        /// "vendor", "class" or "name".
        what: &'static str,
        /// The name.
        name: String,
    },
    /// A device reference without `=`.
    #[error("unqualified device \"{0}\", missing {1}")]
    Unqualified(String, &'static str),
}

fn check(name: &str, what: &'static str, extra: &[char]) -> Result<(), GrammarError> {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return Err(GrammarError::Empty(what));
    };
    let device = what == "device";
    if device {
        if !first.is_ascii_alphanumeric() {
            return Err(GrammarError::BadNameStart(name.to_string()));
        }
    } else if !first.is_ascii_alphabetic() {
        return Err(GrammarError::BadStart {
            what,
            name: name.to_string(),
        });
    }
    for ch in name.chars().skip(1) {
        if !(ch.is_ascii_alphanumeric() || extra.contains(&ch)) {
            return Err(GrammarError::BadChar {
                what,
                ch,
                name: name.to_string(),
            });
        }
    }
    if name.len() > 1 && !name.ends_with(|c: char| c.is_ascii_alphanumeric()) {
        let what = if device { "name" } else { what };
        return Err(GrammarError::BadEnd {
            what,
            name: name.to_string(),
        });
    }
    Ok(())
}

/// Checks a vendor name (`nvidia.com`).
pub fn check_vendor(name: &str) -> Result<(), GrammarError> {
    check(name, "vendor", &['_', '.', '-'])
}

/// Checks a class name (`gpu`).
pub fn check_class(name: &str) -> Result<(), GrammarError> {
    check(name, "class", &['_', '.', '-'])
}

/// Checks a device name (`0`, `GPU-1a2b...`, `1:0`).
pub fn check_device_name(name: &str) -> Result<(), GrammarError> {
    check(name, "device", &['_', '.', ':', '-'])
}

/// Splits and checks a kind: `nvidia.com/gpu` gives `("nvidia.com", "gpu")`. As in the CDI
/// library, a kind without `/` or with an empty side has neither vendor nor class, and the
/// vendor is reported first.
pub fn parse_kind(kind: &str) -> Result<(&str, &str), GrammarError> {
    let (vendor, class) = match kind.split_once('/') {
        Some((v, c)) if !v.is_empty() && !c.is_empty() => (v, c),
        _ => return Err(GrammarError::Empty("vendor")),
    };
    check_vendor(vendor)?;
    check_class(class)?;
    Ok((vendor, class))
}

/// Splits and checks a fully qualified device name: `nvidia.com/gpu=0` gives
/// `("nvidia.com", "gpu", "0")`.
pub fn parse_qualified_name(device: &str) -> Result<(&str, &str, &str), GrammarError> {
    let (kind, name) = device
        .split_once('=')
        .ok_or_else(|| GrammarError::Unqualified(device.to_string(), "device name"))?;
    if name.is_empty() {
        return Err(GrammarError::Unqualified(device.to_string(), "device name"));
    }
    let (vendor, class) = kind
        .split_once('/')
        .ok_or_else(|| GrammarError::Unqualified(device.to_string(), "class"))?;
    if vendor.is_empty() {
        return Err(GrammarError::Unqualified(device.to_string(), "vendor"));
    }
    check_vendor(vendor)?;
    check_class(class)?;
    check_device_name(name)?;
    Ok((vendor, class, name))
}

/// True when podman would take `device` as a CDI device rather than a host path.
pub fn is_qualified_name(device: &str) -> bool {
    parse_qualified_name(device).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("nvidia.com/gpu=0", true)]
    #[case("nvidia.com/gpu=all", true)]
    #[case("nvidia.com/gpu=1:0", true)]
    #[case("nvidia.com/gpu=GPU-0008bcf4-1111-2222-3333-444455556666", true)]
    #[case("intel.com/gpu=0000-0f-00-0-0x56c0", true)]
    #[case("vendor.com/foo=x", true)]
    #[case("foo.bar.baz/foo-bar123.B_az=d", true)]
    #[case("a/b=c", true)]
    #[case("nvidia.com/gpu=0:rwm", true)] // a name may hold ':' — hence never append :rwm
    #[case("foo", false)]
    #[case("vendor.com/foo/=x", false)]
    #[case("vendor.com/foo/bar=x", false)]
    #[case("/dev/nvidia0", false)]
    #[case("", false)]
    #[case("nvidia.com/gpu=", false)]
    #[case("nvidia.com/=0", false)]
    #[case("/gpu=0", false)]
    #[case("1nvidia.com/gpu=0", false)]
    #[case("nvidia.com/1gpu=0", false)]
    #[case("nvidia.com-/gpu=0", false)]
    #[case("nvidia.com/gpu-=0", false)]
    #[case("nvidia.com/gpu=-0", false)]
    #[case("nvidia.com/gpu=0-", false)]
    #[case("nvidia.com/gpu=0 ", false)]
    #[case("nvidia.com/gpu=a=b", false)]
    #[case("nvídia.com/gpu=0", false)]
    #[case("nvidia.com/g_p.u-x=Z", true)]
    fn qualified_names(#[case] device: &str, #[case] valid: bool) {
        assert_eq!(is_qualified_name(device), valid, "{device}");
    }

    #[rstest]
    #[case("nvidia.com/gpu", Ok(("nvidia.com", "gpu")))]
    #[case("intel.com/gpu-mei", Ok(("intel.com", "gpu-mei")))]
    #[case("gpu", Err("invalid (empty) vendor name"))]
    #[case("/gpu", Err("invalid (empty) vendor name"))]
    #[case("nvidia.com/", Err("invalid (empty) vendor name"))]
    #[case(
        "nvidia.com/gpu/x",
        Err("invalid character '/' in class name \"gpu/x\"")
    )]
    #[case("_x/gpu", Err("invalid vendor \"_x\", should start with letter"))]
    #[case(
        "x./gpu",
        Err("invalid vendor \"x.\", should end with a letter or digit")
    )]
    #[case("x/9", Err("invalid class \"9\", should start with letter"))]
    fn kinds(#[case] kind: &str, #[case] want: Result<(&str, &str), &str>) {
        let got = parse_kind(kind).map_err(|e| e.to_string());
        assert_eq!(got, want.map_err(str::to_string));
    }

    #[rstest]
    #[case("0", None)]
    #[case("all", None)]
    #[case("a", None)]
    #[case("", Some("invalid (empty) device name"))]
    #[case("_0", Some("invalid name \"_0\", should start with letter or digit"))]
    #[case("0_", Some("invalid name \"0_\", should end with a letter or digit"))]
    #[case("0 1", Some("invalid character ' ' in device name \"0 1\""))]
    #[case("gpu/0", Some("invalid character '/' in device name \"gpu/0\""))]
    fn device_names(#[case] name: &str, #[case] error: Option<&str>) {
        assert_eq!(
            check_device_name(name)
                .err()
                .map(|e| e.to_string())
                .as_deref(),
            error
        );
    }
}
