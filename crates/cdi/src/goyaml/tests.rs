//! The YAML reader against yaml.v2's behaviour (`resolve.go`, `decode.go`, `readerc.go` of
//! gopkg.in/yaml.v2 v2.4.0 as vendored in sigs.k8s.io/yaml v1.4.0, which CDI library v1.1.0
//! uses).

use std::time::{Duration, Instant};

use rstest::rstest;

use super::resolve::{Value, format_g32, resolve};
use super::*;

fn scalar(text: &str, implicit: bool, tag: &str) -> Result<Value<'static>, String> {
    let s = Scalar {
        text: Cow::Owned(text.to_string()),
        implicit,
        tag: tag.into(),
        line: 1,
    };
    resolve(&s).map(|v| match v {
        Value::Str(c) => Value::Str(Cow::Owned(c.into_owned())),
        Value::Null => Value::Null,
        Value::Bool(b) => Value::Bool(b),
        Value::Int(i) => Value::Int(i),
        Value::Uint(u) => Value::Uint(u),
        Value::Float(f) => Value::Float(f),
        Value::Merge => Value::Merge,
    })
}

fn s(t: &str) -> Value<'static> {
    Value::Str(Cow::Owned(t.to_string()))
}

// resolve.go `resolve` and its `resolveMapList`, YAML 1.1 style.
#[rstest]
#[case("yes", Value::Bool(true))]
#[case("Off", Value::Bool(false))]
#[case("y", Value::Bool(true))]
#[case("~", Value::Null)]
#[case("", Value::Null)]
#[case("0666", Value::Int(438))] // Go ParseInt base 0: a leading 0 is octal
#[case("0o17", Value::Int(15))]
#[case("0x1F", Value::Int(31))]
#[case("0b101", Value::Int(5))]
#[case("1_000", Value::Int(1000))] // underscores dropped before parsing
#[case("-12", Value::Int(-12))]
#[case("+7", Value::Int(7))]
#[case("08", Value::Float(8.0))] // not octal, but a float by yamlStyleFloat
#[case("18446744073709551615", Value::Uint(u64::MAX))]
#[case("1e3", Value::Float(1000.0))]
#[case(".5", Value::Float(0.5))]
#[case("1.", Value::Float(1.0))]
#[case("1e400", s("1e400"))] // ParseFloat overflows: left a string
#[case("0x1p3", s("0x1p3"))]
#[case("2001-12-14", s("2001-12-14"))] // timestamps stay strings in an interface{}
#[case("0.5.0", s("0.5.0"))]
#[case("nvidia.com/gpu", s("nvidia.com/gpu"))]
#[case("<<", Value::Merge)]
fn plain_scalars(#[case] text: &str, #[case] want: Value<'static>) {
    assert_eq!(scalar(text, true, ""), Ok(want), "{text}");
}

#[rstest]
#[case("0666", "", Ok(s("0666")))] // quoted
#[case("12", "tag:yaml.org,2002:str", Ok(s("12")))]
#[case("12", "tag:yaml.org,2002:int", Ok(Value::Int(12)))]
#[case("12", "tag:yaml.org,2002:float", Ok(Value::Float(12.0)))]
#[case(
    "abc",
    "tag:yaml.org,2002:int",
    Err("cannot decode !!str `abc` as a !!int")
)]
#[case("12", "!custom", Ok(s("12")))]
#[case("L2Rldi94", "tag:yaml.org,2002:binary", Ok(s("/dev/x")))]
#[case(
    "L2Rldi9",
    "tag:yaml.org,2002:binary",
    Err("!!binary value contains invalid base64 data")
)]
fn tagged_and_quoted_scalars(
    #[case] text: &str,
    #[case] tag: &str,
    #[case] want: Result<Value<'static>, &str>,
) {
    assert_eq!(scalar(text, false, tag), want.map_err(str::to_string));
}

// sigs.k8s.io/yaml convertToJSONableObject: strconv.FormatFloat(f, 'g', -1, 32).
#[rstest]
#[case(1.0, "1")]
#[case(0.5, "0.5")]
#[case(1e6, "1e+06")]
#[case(123456.0, "123456")]
#[case(0.0001, "0.0001")]
#[case(0.00001, "1e-05")]
#[case(1.2345678901, "1.2345679")]
#[case(-0.0, "-0")]
#[case(f64::INFINITY, "+Inf")]
#[case(1.5e-7, "1.5e-07")]
fn go_float_text(#[case] f: f64, #[case] want: &str) {
    assert_eq!(format_g32(f), want);
}

#[rstest]
#[case(b"\xef\xbb\xbfa: 1", "a: 1")]
#[case(b"\xff\xfea\x00:\x00 \x001\x00", "a: 1")]
#[case(b"\xfe\xff\x00a\x00:\x00 \x001", "a: 1")]
fn byte_order_marks(#[case] bytes: &[u8], #[case] want: &str) {
    assert_eq!(decode_text(bytes).as_deref(), Ok(want));
}

#[rstest]
#[case(b"a: \x01")]
#[case(b"a: \xff")]
#[case(b"# \x7f")]
fn unreadable_text(#[case] bytes: &[u8]) {
    assert!(matches!(decode_text(bytes), Err(YamlError::Syntax(_))));
}

fn check_text(text: &str) -> Result<walk::Counts, YamlError> {
    let doc = load(text)?;
    walk::check(&doc, 4 << 20)
}

#[test]
fn only_the_first_document_is_read() {
    assert!(check_text("a: 1\n---\n[ not yaml").is_ok());
    assert!(check_text("{\"a\": 1}{\"b\": 2}").is_ok());
}

#[rstest]
#[case("a: 1\na: 2\n")]
#[case("b: &m {a: 1}\nc:\n  <<: *m\n  a: 2\n")]
#[case("yes: 1\ntrue: 2\n")] // both are the boolean true
#[case("? [a]\n: 1\n")]
#[case("a: &x [*x]\n")]
#[case("<<: [1]\n")]
fn refused_while_decoding(#[case] text: &str) {
    assert!(check_text(text).is_err(), "{text}");
}

#[test]
fn keys_of_different_types_differ() {
    assert!(check_text("1: a\n\"1\": b\n1.0: c\n").is_ok());
}

/// The bomb, scaled: one anchored list of `items` strings, aliased by `refs` entries.
fn list_bomb(items: usize, refs: usize) -> String {
    let list = vec!["x"; items].join(",");
    let mut t = format!("a: &a [{list}]\nb:\n");
    for _ in 0..refs {
        t.push_str("- *a\n");
    }
    t
}

#[test]
fn yaml_v2_alias_ratio_is_reproduced() -> Result<(), YamlError> {
    // 100 aliases of a 10-item list: 1,100 of 1,213 decodes aliased (90.7%), under 99%.
    let counts = check_text(&list_bomb(10, 100))?;
    assert_eq!(
        (counts.decodes, counts.aliased),
        (1 + 1 + 1 + 11 + 1 + 1 + 100 * 12, 1100)
    );
    // 1,000 aliases of a 1,000-item list: past 99% long before the end.
    assert_eq!(
        check_text(&list_bomb(1000, 1000)).err(),
        Some(YamlError::ExcessiveAliasing)
    );
    Ok(())
}

#[test]
fn a_one_megabyte_alias_bomb_fails_fast() {
    let text = list_bomb(90_000, 12_000);
    assert!(text.len() > 200_000);
    let start = Instant::now();
    assert_eq!(check_text(&text).err(), Some(YamlError::ExcessiveAliasing));
    // Generous, for debug builds on a shared machine; it takes milliseconds in release.
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn a_large_scalar_aliased_many_times_is_bounded_in_bytes() {
    let big = "x".repeat(500_000);
    let mut text = format!("a: &a {big}\nb:\n");
    for _ in 0..10_000 {
        text.push_str("- *a\n");
    }
    let start = Instant::now();
    assert_eq!(
        check_text(&text).err(),
        Some(YamlError::AliasesTooLarge { limit: 4 << 20 })
    );
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

#[rstest]
#[case::flow(format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000)))]
#[case::block_keys("? ".repeat(2_000_000))]
#[case::block_sequences(format!("{}x\n", "- ".repeat(1_000_000)))]
#[case::block_maps((0..100).map(|i| format!("{}k:\n", " ".repeat(i))).collect::<String>())]
fn nesting_of_every_kind_is_bounded(#[case] text: String) {
    let start = Instant::now();
    assert_eq!(check_text(&text).err(), Some(YamlError::TooDeep));
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn aliases_cannot_nest_past_the_bound() {
    let mut text = String::from("a0: &a0 [x]\n");
    for i in 1..100 {
        text.push_str(&format!("a{i}: &a{i} [*a{}]\n", i - 1));
    }
    assert_eq!(check_text(&text).err(), Some(YamlError::TooDeep));
}

#[test]
fn brackets_in_comments_and_strings_are_text() {
    let text = format!("# {}\na: \"{}\"\n", "[".repeat(65), "{".repeat(65));
    assert!(check_text(&text).is_ok());
}
