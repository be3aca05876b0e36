//! The requirement grammar of `nvidia-container-cli configure --require=EXPR`, which NVIDIA's
//! legacy hook runs with one `--require` per requirement of the image (docs/image-check.md,
//! "The grammar"). Written from libnvidia-container's `src/cli/dsl.c` (`dsl_evaluate`,
//! `evaluate_rule`, `dsl_compare_version`, `dsl_compare_string`) and `src/cli/configure.c`
//! (the four rules), so that gpuctl refuses, accepts and words exactly what the hook does:
//!
//! - alternatives are split at the ASCII space only (`strsep(" ")`) and are "or"; conditions
//!   at `,` only and are "and"; empty pieces are skipped, and evaluation stops at the first
//!   alternative that holds and, inside one, at the first condition that fails, so what
//!   follows is never read;
//! - a condition is a name (`cuda`, `driver`, `arch`, `brand`, any case), a run of the
//!   characters `<>=!`, and a non-empty value; the run names the first of `=`, `!=`, `<`,
//!   `<=`, `>`, `>=` it is a prefix of (`!` alone is `!=`; `==` is none: invalid);
//! - versions are compared number by number (`12.8` against `12.8.1`: the longer one is
//!   greater, trailing `.0` parts aside); a value with a character other than digits and dots
//!   is invalid; brands compare as text without case, with `=` and `!=` only;
//! - a false condition whose `NAME OP VALUE` text is 128 bytes or more is invalid (the buffer
//!   that keeps it for the message).

/// A comparison, as `dsl.c` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `=`
    Eq,
    /// `!=` (also written `!`)
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// `dsl.c`'s operator table, in its order: a run of operator characters names the first entry
/// it is a prefix of.
const OPERATORS: [(&str, Op); 6] = [
    ("=", Op::Eq),
    ("!=", Op::Ne),
    ("<", Op::Lt),
    ("<=", Op::Le),
    (">", Op::Gt),
    (">=", Op::Ge),
];

/// The brands libnvidia-container's `src/driver.c` names NVML's brand types by
/// (`driver_get_device_brand_1_svc`; every other type is `Unknown`).
pub const BRANDS: [&str; 7] = [
    "Quadro", "Tesla", "NVS", "GRID", "GeForce", "TITAN", "Unknown",
];

/// The characters an operator is made of.
const OP_CHARS: &[u8] = b"<>=!";

/// The text `dsl.c` keeps of a false condition must fit in 128 bytes with its NUL.
const EXPR_MAX: usize = 128;

impl Op {
    /// The operator as the error message writes it.
    pub fn as_str(self) -> &'static str {
        OPERATORS
            .iter()
            .find(|(_, op)| *op == self)
            .map_or("?", |(s, _)| s)
    }
}

/// The operator a run of operator characters names, if any.
pub fn op_of(run: &str) -> Option<Op> {
    OPERATORS
        .iter()
        .find(|(s, _)| s.starts_with(run))
        .map(|(_, op)| *op)
}

/// Reads one `strtoumax` number at the start of `s`: its value (`None` when it overflows to
/// `UINTMAX_MAX`, which `dsl.c` takes as an error) and the rest. `s` holds digits and dots only.
fn number(s: &str) -> Option<(u64, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let value = s[..digits].parse::<u64>().ok().filter(|v| *v != u64::MAX)?;
    Some((value, &s[digits..]))
}

/// `dsl_compare_version`: `None` where it answers -1 (invalid).
pub fn compare_version(v1: &str, op: Op, v2: &str) -> Option<bool> {
    let version_chars = |s: &str| s.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if !version_chars(v1) || !version_chars(v2) {
        return None;
    }
    let (mut v1, mut v2) = (v1, v2);
    while !v1.is_empty() && !v2.is_empty() {
        let (n1, r1) = number(v1)?;
        let (n2, r2) = number(v2)?;
        if n1 != n2 {
            return Some(match op {
                Op::Eq => false,
                Op::Ne => true,
                Op::Lt | Op::Le => n1 < n2,
                Op::Gt | Op::Ge => n1 > n2,
            });
        }
        v1 = r1.trim_start_matches('.');
        v2 = r2.trim_start_matches('.');
    }
    // What is left of the longer one counts only if it is more than dots and zeros.
    let v1_more = !v1.trim_start_matches(['.', '0']).is_empty();
    let v2_more = !v2.trim_start_matches(['.', '0']).is_empty();
    Some(match op {
        Op::Ne => v1_more || v2_more,
        Op::Eq => !v1_more && !v2_more,
        Op::Le => !v1_more,
        Op::Ge => !v2_more,
        Op::Lt => !v1_more && v2_more,
        Op::Gt => v1_more && !v2_more,
    })
}

/// What gpuctl knows of the container's driver and GPU when it reads a requirement.
#[derive(Debug, Clone, Copy)]
pub struct Facts<'a> {
    /// The driver's CUDA as `nvidia-container-cli` prints it (`12.8`: NVML's major.minor),
    /// `None` when gpuctl cannot tell it.
    pub cuda: Option<&'a str>,
    /// The driver may run a newer CUDA than `cuda` (a branch newer than NVIDIA's table):
    /// `cuda` is then only the least it runs.
    pub cuda_open: bool,
    /// The driver release (`570.124.06`).
    pub driver: &'a str,
    /// The GPU's brand as libnvidia-container names it (one of [`BRANDS`]), `None` for one
    /// it may name in a later release: none of those, but any other.
    pub brand: Option<&'a str>,
}

/// What a condition can come to, over what gpuctl does not know (a set: several may be
/// possible).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Possible {
    /// It can hold.
    pub holds: bool,
    /// It can fail.
    pub fails: bool,
    /// It can be refused as an invalid expression.
    pub invalid: bool,
}

impl Possible {
    const INVALID: Possible = Possible {
        holds: false,
        fails: false,
        invalid: true,
    };

    fn known(b: bool) -> Possible {
        Possible {
            holds: b,
            fails: !b,
            invalid: false,
        }
    }

    fn either() -> Possible {
        Possible {
            holds: true,
            fails: true,
            invalid: false,
        }
    }
}

/// `evaluate_rule` on one condition.
pub fn condition(cond: &str, facts: &Facts<'_>) -> Possible {
    let name_len = cond.bytes().take_while(|b| !OP_CHARS.contains(b)).count();
    let run_len = cond[name_len..]
        .bytes()
        .take_while(|b| OP_CHARS.contains(b))
        .count();
    if name_len == 0 || run_len == 0 {
        return Possible::INVALID;
    }
    let name = &cond[..name_len];
    let Some(op) = op_of(&cond[name_len..name_len + run_len]) else {
        return Possible::INVALID;
    };
    let value = &cond[name_len + run_len..];
    if value.is_empty() {
        return Possible::INVALID;
    }
    let version = |have: Option<&str>| match have {
        Some(have) => compare_version(have, op, value).map_or(Possible::INVALID, Possible::known),
        // Unknown: the value's own checks still apply ("1" stands for any valid number).
        None => compare_version("1", op, value).map_or(Possible::INVALID, |_| Possible::either()),
    };
    let mut p = match name.to_ascii_lowercase().as_str() {
        "cuda" if facts.cuda_open => open_version(facts.cuda.unwrap_or("0"), op, value),
        "cuda" => version(facts.cuda),
        "driver" => version(Some(facts.driver)),
        "arch" => version(None),
        "brand" => match (op, facts.brand) {
            (Op::Eq | Op::Ne, Some(b)) => {
                Possible::known(b.eq_ignore_ascii_case(value) == (op == Op::Eq))
            }
            (Op::Eq | Op::Ne, None) if BRANDS.iter().any(|b| b.eq_ignore_ascii_case(value)) => {
                Possible::known(op == Op::Ne)
            }
            (Op::Eq | Op::Ne, None) => Possible::either(),
            _ => Possible::INVALID,
        },
        _ => Possible::INVALID,
    };
    // A false condition is kept as "NAME OP VALUE" for the message; one too long for the
    // buffer is an error instead.
    if p.fails && name.len() + op.as_str().len() + value.len() + 2 >= EXPR_MAX {
        p.fails = false;
        p.invalid = true;
    }
    p
}

/// A comparison with a version known only to be at least `least`: the answer is the same on
/// each side of `value`, so `least`, `value` itself (when above `least`) and a version above
/// both stand for every case.
fn open_version(least: &str, op: Op, value: &str) -> Possible {
    let mut out = Possible::default();
    let above = compare_version(value, Op::Gt, least) == Some(true);
    let samples = [
        Some(least),
        above.then_some(value),
        Some("4294967295.4294967295"),
    ];
    for have in samples.into_iter().flatten() {
        match compare_version(have, op, value) {
            Some(b) => {
                out.holds |= b;
                out.fails |= !b;
            }
            None => return Possible::INVALID,
        }
    }
    out
}

/// What one requirement can come to, over what gpuctl does not know.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Verdicts {
    /// It can be satisfied.
    pub satisfied: bool,
    /// It can be unsatisfied (`unsatisfied condition: ...`).
    pub unsatisfied: bool,
    /// It can be an invalid expression (`invalid expression`).
    pub invalid: bool,
}

/// `dsl_evaluate` on one requirement.
pub fn evaluate(predicate: &str, facts: &Facts<'_>) -> Verdicts {
    let mut out = Verdicts::default();
    // `ret` on entering the next alternative, in each world still running: true before any
    // condition was read, false after an alternative failed.
    let (mut entering_true, mut entering_false) = (true, false);
    for alt in predicate.split(' ').filter(|a| !a.is_empty()) {
        if !entering_true && !entering_false {
            break;
        }
        let (mut held, mut failed, mut read) = (true, false, false);
        for cond in alt.split(',').filter(|c| !c.is_empty()) {
            read = true;
            let p = condition(cond, facts);
            out.invalid |= p.invalid;
            failed |= p.fails;
            if !p.holds {
                held = false;
                break;
            }
        }
        if held {
            // The alternative held: the loop ends with the last condition's true, or, for an
            // alternative of commas only, with `ret` as it came in.
            out.satisfied |= read || entering_true;
            out.unsatisfied |= !read && entering_false;
        }
        (entering_true, entering_false) = (false, failed);
    }
    out.satisfied |= entering_true;
    out.unsatisfied |= entering_false;
    out
}

/// The message `nvidia-container-cli` prints for an unsatisfied requirement: its first
/// space-separated piece, with the driver advice when that starts with `cuda>=`.
pub fn unsatisfied_message(predicate: &str) -> String {
    let first = predicate.split(' ').next().unwrap_or("");
    if first.starts_with("cuda>=") {
        format!(
            "unsatisfied condition: {first}, please update your driver to a newer version, or use an earlier cuda container"
        )
    } else {
        format!("unsatisfied condition: {first}")
    }
}

#[cfg(test)]
#[path = "dsl_tests.rs"]
mod tests;
