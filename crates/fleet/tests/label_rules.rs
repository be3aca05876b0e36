//! The label rules against apimachinery's own test vectors: `TestIsQualifiedName` and
//! `TestIsValidLabelValue` in k8s.io/apimachinery/pkg/util/validation/validation_test.go
//! (kubernetes/kubernetes, staging/src/k8s.io/apimachinery, commit 3782b558a28f), and
//! `TestIsDNS1123Subdomain` for the prefix.

use gpuctl_fleet::label::{
    check_label_value, check_qualified_name, is_dns1123_subdomain, nfd_label_name, value_from,
};
use rstest::rstest;

#[rstest]
#[case("simple")]
#[case("now-with-dashes")]
#[case("1-starts-with-num")]
#[case("1234")]
#[case("simple/simple")]
#[case("now-with-dashes/simple")]
#[case("now-with-dashes/now-with-dashes")]
#[case("now.with.dots/simple")]
#[case("now-with.dashes-and.dots/simple")]
#[case("1-num.2-num/3-num")]
#[case("1234/5678")]
#[case("1.2.3.4/5678")]
#[case("Uppercase_Is_OK_123")]
#[case("example.com/Uppercase_Is_OK_123")]
#[case("requests.storage-foo")]
#[case(&"a".repeat(63))]
#[case(&format!("{}/{}", "a".repeat(253), "b".repeat(63)))]
fn qualified_names_apimachinery_accepts(#[case] name: &str) {
    assert_eq!(check_qualified_name(name), Ok(()), "{name}");
}

#[rstest]
#[case("nospecialchars%^=@")]
#[case("cantendwithadash-")]
#[case("-cantstartwithadash-")]
#[case("only/one/slash")]
#[case("Example.com/abc")]
#[case("example_com/abc")]
#[case("example.com/")]
#[case("/simple")]
#[case(&"a".repeat(64))]
#[case(&format!("{}/abc", "a".repeat(254)))]
fn qualified_names_apimachinery_refuses(#[case] name: &str) {
    assert!(check_qualified_name(name).is_err(), "{name}");
}

#[rstest]
#[case("simple")]
#[case("now-with-dashes")]
#[case("1-starts-with-num")]
#[case("end-with-num-1")]
#[case("1234")]
#[case(&"a".repeat(63))]
#[case("")]
fn label_values_apimachinery_accepts(#[case] value: &str) {
    assert_eq!(check_label_value(value), Ok(()), "{value}");
}

#[rstest]
#[case("nospecialchars%^=@")]
#[case("Tama-nui-te-rā.is.Māori.sun")]
#[case("\\backslashes\\are\\bad")]
#[case("-starts-with-dash")]
#[case("ends-with-dash-")]
#[case(".starts.with.dot")]
#[case("ends.with.dot.")]
#[case(&"a".repeat(64))]
fn label_values_apimachinery_refuses(#[case] value: &str) {
    assert!(check_label_value(value).is_err(), "{value}");
}

#[rstest]
#[case("a.b.c.d.e", true)]
#[case("1--a--b--2.1", true)]
#[case(&"a".repeat(253), true)]
#[case("a..b", false)]
#[case("A.a", false)]
#[case("a_b", false)]
#[case(&"a".repeat(254), false)]
fn dns_subdomains(#[case] s: &str, #[case] ok: bool) {
    assert_eq!(is_dns1123_subdomain(s), ok, "{s}");
}

// NFD's namespace rules (source/local and nfd-master's label namespace check).
#[rstest]
#[case("gpu", Ok("feature.node.kubernetes.io/gpu"))]
#[case("gpuctl.io/nvidia.count", Ok("gpuctl.io/nvidia.count"))]
#[case("feature.node.kubernetes.io/x", Ok("feature.node.kubernetes.io/x"))]
#[case("kubernetes.io/x", Err(()))]
#[case("node.kubernetes.io/x", Err(()))]
#[case("gpuctl.io/", Err(()))]
fn nfd_names(#[case] name: &str, #[case] want: Result<&str, ()>) {
    assert_eq!(
        nfd_label_name(name).map_err(|_| ()),
        want.map(str::to_string)
    );
}

// Host-supplied strings become values only through the rules: spaces as GFD turns them,
// anything else replaced, ends trimmed, 63 characters at most, and nothing when nothing is left.
#[rstest]
#[case("NVIDIA GeForce RTX 4080", Some("NVIDIA-GeForce-RTX-4080"))]
#[case("AMD Instinct MI300X", Some("AMD-Instinct-MI300X"))]
#[case("  Radeon (TM) Pro W7900 ", Some("Radeon-TM-Pro-W7900"))]
#[case("x=y\nz", Some("x-y-z"))]
#[case("Tama-nui-te-rā", Some("Tama-nui-te-r"))]
#[case("---", None)]
#[case("", None)]
#[case("é", None)]
fn host_values(#[case] raw: &str, #[case] want: Option<&str>) {
    let got = value_from(raw);
    assert_eq!(got.as_deref(), want);
    if let Some(v) = got {
        assert_eq!(check_label_value(&v), Ok(()));
    }
}

#[test]
fn long_host_values_are_cut_to_a_valid_value() {
    let raw = format!("{}-{}", "a".repeat(62), "b".repeat(10));
    let v = value_from(&raw).unwrap_or_default();
    assert_eq!(v, "a".repeat(62));
    assert_eq!(check_label_value(&v), Ok(()));
}
