//! Which requirements the legacy hook hands to `nvidia-container-cli`, read from the
//! container's environment as nvidia-container-toolkit's `internal/config/image/cuda_image.go`
//! reads it (`GetRequirements`, `IsLegacy`, `HasDisableRequire`, `legacyVersion`), and the
//! limit libnvidia-container's `src/cli/cli.h` puts on them (`char *reqs[32]`, refused in
//! `src/cli/configure.c` with "too many requirements").

use super::ImageEnv;

/// The most `--require` flags `nvidia-container-cli` keeps.
pub const MAX_REQUIREMENTS: usize = 32;

/// The prefix of every requirement variable.
pub const REQUIRE_PREFIX: &str = "NVIDIA_REQUIRE_";

/// Variables with this prefix are Jetson mount options, not requirements: the toolkit leaves
/// them out (`NVIDIA_REQUIRE_JETPACK=csv-mounts=all`, `NVIDIA_REQUIRE_JETPACK_HOST_MOUNTS`).
pub const JETPACK_PREFIX: &str = "NVIDIA_REQUIRE_JETPACK";

/// Whether a variable is one the toolkit passes on as a requirement.
pub fn is_requirement(name: &str) -> bool {
    name.starts_with(REQUIRE_PREFIX) && !name.starts_with(JETPACK_PREFIX)
}

/// Go's `strconv.ParseBool` true values, which `HasDisableRequire` accepts.
pub fn parse_bool_true(v: &str) -> bool {
    matches!(v, "1" | "t" | "T" | "true" | "TRUE" | "True")
}

/// `legacyVersion`: `CUDA_VERSION` read by Masterminds/semver v3's `NewVersion` (with its
/// default `CoerceNewVersion`: the loose form `v?N(.N)?(.N)?(-pre)?(+meta)?`, at most 256
/// bytes) and cut to `major.minor`, each part below 2^32. `Err` names why, as the hook's
/// failure would ("failed to get requirements").
pub fn major_minor(version: &str) -> Result<String, String> {
    let bad = |why: &str| Err(format!("invalid CUDA version {version}: {why}"));
    if version.len() > 256 {
        return bad("version string is too long (max 256 bytes)");
    }
    let core_end = version.find(['-', '+']).unwrap_or(version.len());
    let (core, extra) = version.split_at(core_end);
    let core = core.strip_prefix('v').unwrap_or(core);
    let parts: Vec<&str> = core.split('.').collect();
    if parts.len() > 3
        || parts
            .iter()
            .any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()))
    {
        return bad("invalid semantic version");
    }
    if !extra_ok(extra) {
        return bad("invalid semantic version");
    }
    let mut nums = Vec::new();
    for p in &parts {
        match p.parse::<u64>() {
            Ok(n) => nums.push(n),
            Err(_) => return bad("error parsing version segment"),
        }
    }
    let (major, minor) = (nums[0], nums.get(1).copied().unwrap_or(0));
    if u32::try_from(major).is_err() {
        return bad("invalid major version");
    }
    if u32::try_from(minor).is_err() {
        return bad("invalid minor version");
    }
    Ok(format!("{major}.{minor}"))
}

/// The `-prerelease` and `+metadata` tail: dot-separated non-empty identifiers of
/// `[0-9A-Za-z-]`, a numeric prerelease identifier without a leading zero.
fn extra_ok(extra: &str) -> bool {
    let idents = |s: &str, numeric_rule: bool| {
        s.split('.').all(|p| {
            !p.is_empty()
                && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !(numeric_rule
                    && p.len() > 1
                    && p.starts_with('0')
                    && p.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    let (pre, meta) = match extra.split_once('+') {
        Some((pre, meta)) => (pre, Some(meta)),
        None => (extra, None),
    };
    let pre_ok = match pre.strip_prefix('-') {
        Some(p) => idents(p, true),
        None => pre.is_empty(),
    };
    pre_ok && meta.is_none_or(|m| idents(m, false))
}

/// The requirements the hook passes, in the environment's order: every requirement variable's
/// value (an empty one too: it holds), then, for a legacy image (a non-empty `CUDA_VERSION`
/// and an empty or absent `NVIDIA_REQUIRE_CUDA`), `cuda>=MAJOR.MINOR`. `(name, value)` pairs;
/// the legacy one is named `CUDA_VERSION`. `NVIDIA_DISABLE_REQUIRE` is the caller's.
pub fn requirements(env: &ImageEnv) -> Result<Vec<(String, String)>, String> {
    let mut out = env.requires.clone();
    let require_cuda = env
        .requires
        .iter()
        .find(|(k, _)| k == "NVIDIA_REQUIRE_CUDA")
        .map(|(_, v)| v.as_str());
    let legacy = env.cuda_version.as_deref().filter(|v| !v.is_empty());
    if let Some(v) = legacy
        && require_cuda.is_none_or(str::is_empty)
    {
        out.push((
            "CUDA_VERSION".to_string(),
            format!("cuda>={}", major_minor(v)?),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    // nvidia-container-toolkit, internal/config/image/cuda_image_test.go,
    // TestParseMajorMinorVersionValid.
    #[rstest]
    #[case("0", "0.0")]
    #[case("8", "8.0")]
    #[case("7.5", "7.5")]
    #[case("9.0.116", "9.0")]
    #[case("4294967295.4294967295.4294967295", "4294967295.4294967295")]
    #[case("v11.6", "11.6")]
    // beside the toolkit's: a CUDA image's own value and a prerelease
    #[case("12.8.1", "12.8")]
    #[case("12.8.0-rc1+build.5", "12.8")]
    fn cuda_version_reads_as_the_toolkit_reads_it(#[case] v: &str, #[case] want: &str) {
        assert_eq!(major_minor(v).as_deref(), Ok(want));
    }

    // The same file, TestParseMajorMinorVersionInvalid.
    #[rstest]
    #[case("foo")]
    #[case("foo.5.10")]
    #[case("9.0.116.50")]
    #[case("9.0.116foo")]
    #[case("7.foo")]
    #[case("9.0.bar")]
    #[case("9.4294967296")]
    #[case("9.0.116.")]
    #[case("9..0")]
    #[case("9.")]
    #[case(".5.10")]
    #[case("-9")]
    #[case("+9")]
    #[case("-9.1.116")]
    #[case("-9.-1.-116")]
    // beside the toolkit's: a leading-zero prerelease number, and a value with a space
    #[case("12.8.0-01")]
    #[case("12.8 ")]
    fn cuda_version_the_toolkit_refuses(#[case] v: &str) {
        assert!(major_minor(v).is_err(), "{v}");
    }

    fn env(pairs: &[&str]) -> ImageEnv {
        let vars: Vec<(String, String)> = pairs
            .iter()
            .filter_map(|p| p.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        super::super::from_vars(&vars)
    }

    fn values(pairs: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = requirements(&env(pairs))
            .unwrap_or_default()
            .into_iter()
            .map(|(_, v)| v)
            .collect();
        v.sort();
        v
    }

    // internal/config/image/cuda_image_test.go, TestGetRequirements (without its
    // NVIDIA_DISABLE_REQUIRE cases, which mod.rs's tests take: the check, not this list,
    // turns them off), then the hook's own cmd/nvidia-container-runtime-hook/
    // container_config_test.go ("Legacy image, ... requirements set").
    #[rstest]
    #[case(&["NVIDIA_REQUIRE_JETPACK=csv-mounts=all"], &[])]
    #[case(&["NVIDIA_REQUIRE_JETPACK_HOST_MOUNTS=base-only"], &[])]
    #[case(&["NVIDIA_REQUIRE_CUDA=cuda>=11.6"], &["cuda>=11.6"])]
    #[case(&["NVIDIA_REQUIRE_CUDA=cuda>=11.6", "NVIDIA_REQUIRE_BRAND=brand=tesla"], &["brand=tesla", "cuda>=11.6"])]
    #[case(&["CUDA_VERSION=11.6"], &["cuda>=11.6"])]
    #[case(&["CUDA_VERSION=11.6", "NVIDIA_REQUIRE_BRAND=brand=tesla"], &["brand=tesla", "cuda>=11.6"])]
    #[case(&["CUDA_VERSION=9.0", "NVIDIA_REQUIRE_REQ0=req0=true", "NVIDIA_REQUIRE_REQ1=req1=false"], &["cuda>=9.0", "req0=true", "req1=false"])]
    // IsLegacy: an empty NVIDIA_REQUIRE_CUDA is passed on (and holds) and CUDA_VERSION still
    // counts; an empty CUDA_VERSION is no legacy image.
    #[case(&["NVIDIA_REQUIRE_CUDA=", "CUDA_VERSION=12.8.1"], &["", "cuda>=12.8"])]
    #[case(&["CUDA_VERSION=", "NVIDIA_REQUIRE_DRIVER=driver>=550"], &["driver>=550"])]
    fn the_requirements_the_hook_passes(#[case] pairs: &[&str], #[case] want: &[&str]) {
        assert_eq!(values(pairs), want);
    }

    #[test]
    fn a_cuda_version_that_does_not_read_fails_the_hook() {
        let err = requirements(&env(&["CUDA_VERSION=12.x"])).err();
        assert_eq!(
            err.as_deref(),
            Some("invalid CUDA version 12.x: invalid semantic version")
        );
    }
}
