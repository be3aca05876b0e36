//! Kubernetes label rules, as apimachinery's `IsQualifiedName` and `IsValidLabelValue` state
//! them (k8s.io/apimachinery/pkg/util/validation/validation.go), and Node Feature Discovery's
//! own on top: an unprefixed name gets `feature.node.kubernetes.io/`, and a `kubernetes.io`
//! prefix other than that one is refused (docs/fleet.md#label-rules). NFD drops a label that
//! breaks them with only a log line, so gpuctl checks every label before printing it.

/// The longest name part, and the longest value.
pub const NAME_MAX: usize = 63;
/// The longest prefix (a DNS subdomain).
pub const PREFIX_MAX: usize = 253;
/// The prefix NFD gives a name without one.
pub const NFD_DEFAULT_PREFIX: &str = "feature.node.kubernetes.io";

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`: alphanumerics at both ends, `-`, `_`, `.` inside.
fn qualified_part(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(f), Some(l)) => {
            f.is_ascii_alphanumeric()
                && l.is_ascii_alphanumeric()
                && b.iter()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// RFC 1123 subdomain: lowercase labels `[a-z0-9]([-a-z0-9]*[a-z0-9])?` joined by dots, at
/// most 253 characters.
pub fn is_dns1123_subdomain(s: &str) -> bool {
    s.len() <= PREFIX_MAX
        && s.split('.').all(|l| {
            let b = l.as_bytes();
            match (b.first(), b.last()) {
                (Some(f), Some(e)) => {
                    (f.is_ascii_lowercase() || f.is_ascii_digit())
                        && (e.is_ascii_lowercase() || e.is_ascii_digit())
                        && b.iter()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
                }
                _ => false,
            }
        })
}

/// apimachinery's `IsQualifiedName`: `[prefix/]name`. `Err` says what is wrong.
pub fn check_qualified_name(s: &str) -> Result<(), String> {
    let parts: Vec<&str> = s.split('/').collect();
    let name = match parts.as_slice() {
        [name] => name,
        [prefix, name] => {
            if prefix.is_empty() {
                return Err("the prefix part must be non-empty".into());
            }
            if !is_dns1123_subdomain(prefix) {
                return Err(format!(
                    "the prefix {prefix:?} must be a lowercase RFC 1123 subdomain of at most {PREFIX_MAX} characters"
                ));
            }
            name
        }
        _ => return Err("a qualified name has at most one '/'".into()),
    };
    if name.is_empty() {
        return Err("the name part must be non-empty".into());
    }
    if name.len() > NAME_MAX {
        return Err(format!(
            "the name part must be at most {NAME_MAX} characters"
        ));
    }
    if !qualified_part(name) {
        return Err("the name part must consist of alphanumerics, '-', '_' or '.', and start and end with an alphanumeric".into());
    }
    Ok(())
}

/// apimachinery's `IsValidLabelValue`: empty, or at most 63 characters of the name pattern.
pub fn check_label_value(s: &str) -> Result<(), String> {
    if s.is_empty() {
        return Ok(());
    }
    if s.len() > NAME_MAX {
        return Err(format!("a value must be at most {NAME_MAX} characters"));
    }
    if !qualified_part(s) {
        return Err("a value must consist of alphanumerics, '-', '_' or '.', and start and end with an alphanumeric".into());
    }
    Ok(())
}

/// The label NFD makes of a feature file's name: checked, and prefixed when it has no prefix.
pub fn nfd_label_name(name: &str) -> Result<String, String> {
    check_qualified_name(name)?;
    let Some((prefix, _)) = name.split_once('/') else {
        return Ok(format!("{NFD_DEFAULT_PREFIX}/{name}"));
    };
    if (prefix == "kubernetes.io" || prefix.ends_with(".kubernetes.io"))
        && prefix != NFD_DEFAULT_PREFIX
    {
        return Err(format!(
            "the prefix {prefix:?} is in the kubernetes.io namespace, which NFD refuses"
        ));
    }
    Ok(name.to_string())
}

/// A host-supplied string (a product name) as a label value: every character outside
/// `[A-Za-z0-9-_.]` becomes `-`, runs of `-` shrink to one, the ends are trimmed to
/// alphanumerics, and the result is cut to 63 characters (GPU Feature Discovery turns the
/// spaces of `nvidia.com/gpu.product` into `-` the same way). `None` when nothing is left.
pub fn value_from(raw: &str) -> Option<String> {
    let mut out = String::new();
    for c in raw.chars() {
        let c = if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
            c
        } else {
            '-'
        };
        if !(c == '-' && out.ends_with('-')) {
            out.push(c);
        }
    }
    let trim = |s: &str| {
        s.trim_matches(|c: char| !c.is_ascii_alphanumeric())
            .to_string()
    };
    let mut v = trim(&out);
    if v.len() > NAME_MAX {
        v = trim(&v[..NAME_MAX]);
    }
    (!v.is_empty() && check_label_value(&v).is_ok()).then_some(v)
}
