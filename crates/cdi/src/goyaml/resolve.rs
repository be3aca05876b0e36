//! What a scalar means to yaml.v2 (`resolve.go`, `resolve`): YAML 1.1 booleans (`yes`, `off`),
//! Go integer syntax (`0666` is octal, `0x1F`, underscores dropped), floats, nulls; and how
//! `sigs.k8s.io/yaml` then writes a number or boolean where Go expects a string (`yaml.go`,
//! `convertToJSONableObject`).

use std::borrow::Cow;

use super::Scalar;

/// yaml.v2's tag prefix for its core types.
const CORE: &str = "tag:yaml.org,2002:";

/// A scalar as yaml.v2 hands it to `sigs.k8s.io/yaml` (`interface{}` decoding).
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    /// `~`, `null`, empty.
    Null,
    /// `true`, `yes`, `on`, ...
    Bool(bool),
    /// An integer that fits in Go's `int`.
    Int(i64),
    /// An integer above `i64::MAX`.
    Uint(u64),
    /// A float.
    Float(f64),
    /// Anything else, including timestamps (yaml.v2 keeps those as strings).
    Str(Cow<'a, str>),
    /// The merge key `<<`.
    Merge,
}

/// Resolves a scalar as yaml.v2's decoder does into an `interface{}`.
pub fn resolve<'a>(s: &Scalar<'a>) -> Result<Value<'a>, String> {
    let text = &s.text;
    if s.tag.is_empty() && !s.implicit {
        return Ok(Value::Str(text.clone()));
    }
    let tag = s.tag.strip_prefix(CORE).map_or(&*s.tag, |t| t);
    let core = s.tag.starts_with(CORE) || s.tag.is_empty();
    if core && tag == "binary" {
        return base64(text).map(|b| Value::Str(Cow::Owned(String::from_utf8_lossy(&b).into())));
    }
    let resolvable = s.tag.is_empty()
        || (core && matches!(tag, "str" | "bool" | "int" | "float" | "null" | "timestamp"));
    if !resolvable {
        // A tag yaml.v2 does not know leaves the text as it is.
        return Ok(Value::Str(text.clone()));
    }
    let got = if tag == "str" {
        Value::Str(text.clone())
    } else {
        implicit(text)
    };
    let got_tag = match &got {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Int(_) | Value::Uint(_) => "int",
        Value::Float(_) => "float",
        Value::Merge => "merge",
        Value::Str(_) if timestamp(text) => "timestamp",
        Value::Str(_) => "str",
    };
    match (s.tag.is_empty(), tag) {
        (true, _) => Ok(got),
        (false, t) if t == got_tag || t == "str" => Ok(got),
        (false, "float") => match got {
            Value::Int(i) => Ok(Value::Float(i as f64)),
            Value::Uint(u) => Ok(Value::Float(u as f64)),
            _ => Err(cannot(got_tag, text, tag)),
        },
        (false, "timestamp") if got_tag == "str" && timestamp(text) => Ok(got),
        _ => Err(cannot(got_tag, text, tag)),
    }
}

fn cannot(got: &str, text: &str, want: &str) -> String {
    format!("cannot decode !!{got} `{text}` as a !!{want}")
}

/// True when yaml.v2 reads the untagged plain scalar `text` as a string (not a boolean,
/// number, null or merge key). Allocates nothing unless the text starts like a number.
pub fn plain_is_str(text: &str) -> bool {
    let b = text.as_bytes();
    match b.first() {
        None => false,
        // A sign before anything but a digit, a point or an underscore (which yaml.v2 drops
        // before reading a number: `+_3` is 3) is no number (`--link`).
        Some(b'+' | b'-') if !matches!(b.get(1), Some(b'0'..=b'9' | b'.' | b'_')) => true,
        Some(b'.' | b'0'..=b'9' | b'+' | b'-') => matches!(implicit(text), Value::Str(_)),
        // Only these start one of the fixed words, none longer than 5 bytes.
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' | b'<') => {
            b.len() > 5 || word(text).is_none()
        }
        Some(_) => true,
    }
}

/// The untagged reading (`resolve` with an empty tag).
fn implicit(text: &str) -> Value<'static> {
    if let Some(v) = word(text) {
        return v;
    }
    implicit_number(text)
}

/// The fixed words yaml.v2 resolves: YAML 1.1 booleans, nulls, infinities, NaN, the merge key.
fn word(text: &str) -> Option<Value<'static>> {
    Some(match text {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Value::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Value::Bool(false)
        }
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        ".nan" | ".NaN" | ".NAN" => Value::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Value::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Value::Float(f64::NEG_INFINITY),
        "<<" => Value::Merge,
        _ => return None,
    })
}

/// The reading of a text that is none of yaml.v2's fixed words.
fn implicit_number(text: &str) -> Value<'static> {
    let owned = || Value::Str(Cow::Owned(text.to_string()));
    match text.as_bytes()[0] {
        b'.' => float(text).map_or_else(owned, Value::Float),
        b'0'..=b'9' | b'+' | b'-' => {
            if timestamp(text) {
                return owned();
            }
            let plain = text.replace('_', "");
            if let Some(v) = go_int(&plain) {
                return v;
            }
            if float_syntax(&plain)
                && let Some(f) = float(&plain)
            {
                return Value::Float(f);
            }
            owned()
        }
        _ => owned(),
    }
}

/// Go's `strconv.ParseInt(s, 0, 64)`, then `ParseUint(s, 0, 64)`: a sign, then `0x`, `0o`,
/// `0b`, a leading `0` (octal) or decimal digits.
fn go_int(s: &str) -> Option<Value<'static>> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let signed = body.len() != s.len();
    let lower = body.get(..2).map(str::to_ascii_lowercase);
    let (radix, digits) = match lower.as_deref() {
        Some("0x") => (16, &body[2..]),
        Some("0o") => (8, &body[2..]),
        Some("0b") => (2, &body[2..]),
        _ if body.len() > 1 && body.starts_with('0') => (8, &body[1..]),
        _ => (10, body),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    if neg {
        if magnitude <= i64::MAX as u64 + 1 {
            return Some(Value::Int((magnitude as i64).wrapping_neg()));
        }
        return None;
    }
    match i64::try_from(magnitude) {
        Ok(i) => Some(Value::Int(i)),
        Err(_) if !signed => Some(Value::Uint(magnitude)),
        Err(_) => None,
    }
}

/// yaml.v2's `yamlStyleFloat`: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn float_syntax(s: &str) -> bool {
    let b = s.trim_start_matches(['+', '-']);
    if b.len() + 1 < s.len() {
        return false;
    }
    let (mantissa, exp) = match b.find(['e', 'E']) {
        Some(i) => (&b[..i], Some(&b[i + 1..])),
        None => (b, None),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", frac)) => digits(frac),
        Some((int, frac)) => digits(int) && (frac.is_empty() || digits(frac)),
        None => digits(mantissa),
    };
    mantissa_ok && exp.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)))
}

/// Go's `strconv.ParseFloat(s, 64)` for the decimal forms yaml.v2 lets reach it; overflow is an
/// error in Go, so it is `None` here.
fn float(s: &str) -> Option<f64> {
    if !s
        .bytes()
        .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'))
    {
        return None;
    }
    s.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// yaml.v2's `parseTimestamp` quick check plus the date shapes it accepts (`2006-1-2`, with an
/// optional time); such text stays a string.
fn timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 8 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let date = s.split(['T', 't', ' ']).next().unwrap_or("");
    let mut parts = date.split('-');
    let ok = |p: Option<&str>, max: usize| {
        p.is_some_and(|p| (1..=max).contains(&p.len()) && p.bytes().all(|c| c.is_ascii_digit()))
    };
    ok(parts.next(), 4) && ok(parts.next(), 2) && ok(parts.next(), 2) && parts.next().is_none()
}

/// Go's `base64.StdEncoding.DecodeString`, which skips line breaks only.
fn base64(text: &str) -> Result<Vec<u8>, String> {
    let bad = || "!!binary value contains invalid base64 data".to_string();
    let clean: Vec<u8> = text
        .bytes()
        .filter(|b| !matches!(b, b'\r' | b'\n'))
        .collect();
    if !clean.len().is_multiple_of(4) {
        return Err(bad());
    }
    let mut out = Vec::with_capacity(clean.len() / 4 * 3);
    for (i, chunk) in clean.chunks(4).enumerate() {
        let last = i + 1 == clean.len() / 4;
        let mut acc = 0u32;
        let mut pad = 0;
        for &c in chunk {
            let v = match c {
                b'A'..=b'Z' => c - b'A',
                b'a'..=b'z' => c - b'a' + 26,
                b'0'..=b'9' => c - b'0' + 52,
                b'+' => 62,
                b'/' => 63,
                b'=' if last => {
                    pad += 1;
                    0
                }
                _ => return Err(bad()),
            };
            if pad > 0 && c != b'=' {
                return Err(bad());
            }
            acc = (acc << 6) | u32::from(v);
        }
        if pad > 2 {
            return Err(bad());
        }
        let bytes = acc.to_be_bytes();
        out.extend_from_slice(&bytes[1..4 - pad]);
    }
    Ok(out)
}

/// How `sigs.k8s.io/yaml` writes a non-string scalar into a Go `string`: `strconv` decimal for
/// integers, `FormatFloat(f, 'g', -1, 32)` for floats, `true`/`false`.
pub fn as_go_string<'a>(v: &Value<'a>) -> Option<Cow<'a, str>> {
    Some(match v {
        Value::Str(s) => s.clone(),
        Value::Bool(b) => Cow::Borrowed(if *b { "true" } else { "false" }),
        Value::Int(i) => Cow::Owned(i.to_string()),
        Value::Uint(u) => Cow::Owned(u.to_string()),
        Value::Float(f) => Cow::Owned(format_g32(*f)),
        Value::Merge => Cow::Borrowed("<<"),
        Value::Null => return None,
    })
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 32)`: the shortest digits that round-trip as a
/// float32, in `%e` form when the exponent is below -4 or at least 6.
pub fn format_g32(f: f64) -> String {
    if f.is_nan() {
        return "NaN".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.to_string();
    }
    let x = f as f32;
    // Rust's `{:e}` prints the shortest round-trip digits: `1.234e6`.
    let e = format!("{x:e}");
    let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if neg { "-" } else { "" };
    if !(-4..6).contains(&exp) {
        let (first, rest) = digits.split_at(1);
        let dot = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{first}{dot}e{esign}{:02}", exp.abs());
    }
    if exp < 0 {
        let zeros = "0".repeat((-exp - 1) as usize);
        return format!("{sign}0.{zeros}{digits}");
    }
    let point = exp as usize + 1;
    if digits.len() <= point {
        format!("{sign}{digits}{}", "0".repeat(point - digits.len()))
    } else {
        format!("{sign}{}.{}", &digits[..point], &digits[point..])
    }
}

/// How `sigs.k8s.io/yaml` turns a mapping key into a JSON object key.
pub fn key_string<'a>(v: &Value<'a>) -> Result<Cow<'a, str>, String> {
    match v {
        Value::Float(f) if f.is_nan() => Ok(Cow::Borrowed(".nan")),
        Value::Float(f) if f.is_infinite() => {
            Ok(Cow::Borrowed(if *f > 0.0 { ".inf" } else { "-.inf" }))
        }
        Value::Merge => Ok(Cow::Borrowed("<<")),
        Value::Null => Err("unsupported map key of type: <nil>".to_string()),
        other => as_go_string(other).ok_or_else(|| "unsupported map key".to_string()),
    }
}

#[cfg(test)]
mod plain_tests {
    use super::*;

    /// `plain_is_str`'s shortcuts against the full resolution, on every text of up to four
    /// characters from those that make numbers, words and signs (the fuzzer found `+_3`).
    #[test]
    fn the_shortcuts_agree_with_the_full_resolution() {
        let alphabet: Vec<char> = "+-._0179aeExXoObBnNyYtTfFlL~<:".chars().collect();
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = texts
                .iter()
                .filter(|t| t.len() == texts.last().map_or(0, String::len))
                .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
                .collect();
            texts.extend(longer);
        }
        for word in [
            "null", "NULL", "false", "FALSE", "True", ".inf", "-.Inf", "<<", "off",
        ] {
            texts.push(word.to_string());
        }
        for t in texts.iter().filter(|t| !t.is_empty()) {
            let full = matches!(implicit(t), Value::Str(_));
            assert_eq!(plain_is_str(t), full, "{t:?}");
        }
    }
}
