//! An image's environment as gpuctl carries it: `KEY=VALUE` pairs, read from a file or from
//! podman. `requirement --image-env`, `doctor --image-env`/`--image` and `run` hand the same
//! type to every vendor (core's `Diagnostics::image_checks`, the requirement model's
//! [`crate::VendorRequest`]); what the pairs mean is each vendor's business (docs/image-check.md). A
//! leaf module, so both the requirement model and the checks can name it.
//!
//! Two forms are read. The JSON array `podman image inspect --format '{{json .Config.Env}}'`
//! prints is the image's own list: each entry is split once, at its first `=`, as the NVIDIA
//! container toolkit splits the container's environment (`strings.SplitN(e, "=", 2)` in its
//! `internal/config/image/builder.go`), so a value holding a line break stays one value. The
//! older `KEY=VALUE` lines (one variable a line) stay accepted for `--image-env`; they cannot
//! carry such a value.

/// An image's environment: `KEY=VALUE` pairs in the image's order, a later value of a key
/// replacing an earlier one, as an environment does.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImageEnv {
    name: String,
    vars: Vec<(String, String)>,
}

/// Why an environment in the JSON form does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EnvFormatError {
    /// Not a JSON array of strings (nor `null`, an image without an environment).
    #[error(
        "is not the JSON list of strings \"--format '{{{{json .Config.Env}}}}'\" prints ({reason})"
    )]
    NotAList {
        /// What the JSON reader said.
        reason: String,
    },
    /// An entry without `=`, which no environment has (the toolkit refuses it too).
    #[error("has the entry '{entry}', which is no KEY=VALUE pair")]
    NoEquals {
        /// The entry, escaped.
        entry: String,
    },
}

impl ImageEnv {
    /// Reads `KEY=VALUE` lines (the form `--image-env` has always taken); lines without `=`
    /// (blank ones, a trailing newline) are ignored. `name` is how sentences call the image
    /// (`the image`, or its reference).
    pub fn parse(name: impl Into<String>, text: &str) -> ImageEnv {
        let mut env = ImageEnv {
            name: name.into(),
            vars: Vec::new(),
        };
        for line in text.lines() {
            let Some((k, v)) = line.split_once('=') else {
                continue;
            };
            env.set(k.trim(), v.trim_end_matches('\r'));
        }
        env
    }

    /// Reads the JSON array of `KEY=VALUE` strings that `podman image inspect --format
    /// '{{json .Config.Env}}'` (and docker's) prints; `null` is an empty environment.
    pub fn from_json(name: impl Into<String>, text: &str) -> Result<ImageEnv, EnvFormatError> {
        let list: Option<Vec<String>> =
            serde_json::from_str(text).map_err(|e| EnvFormatError::NotAList {
                reason: e.to_string(),
            })?;
        let mut env = ImageEnv {
            name: name.into(),
            vars: Vec::new(),
        };
        for entry in list.unwrap_or_default() {
            let Some((k, v)) = entry.split_once('=') else {
                return Err(EnvFormatError::NoEquals {
                    entry: entry.escape_debug().to_string(),
                });
            };
            env.set(k, v);
        }
        Ok(env)
    }

    /// Reads either form: the JSON array when the text starts with `[` (or is `null`), else
    /// `KEY=VALUE` lines.
    pub fn read(name: impl Into<String>, text: &str) -> Result<ImageEnv, EnvFormatError> {
        let start = text.trim_start();
        if start.starts_with('[') || start.trim_end() == "null" {
            ImageEnv::from_json(name, text)
        } else {
            Ok(ImageEnv::parse(name, text))
        }
    }

    /// How sentences call the image.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The value of `key`, when the image sets it.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.vars
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Every pair, in the image's order.
    pub fn vars(&self) -> &[(String, String)] {
        &self.vars
    }

    /// Sets `key` to `value`, replacing an earlier value (an empty key is no variable).
    pub fn set(&mut self, key: &str, value: &str) {
        if key.is_empty() {
            return;
        }
        self.vars.retain(|(k, _)| k != key);
        self.vars.push((key.to_string(), value.to_string()));
    }

    /// Removes `key`.
    pub fn unset(&mut self, key: &str) {
        self.vars.retain(|(k, _)| k != key);
    }

    /// Removes every variable.
    pub fn clear(&mut self) {
        self.vars.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[test]
    fn a_line_break_in_a_value_stays_in_it() {
        // What a lines reading turned into a second, forged pair.
        let text = r#"["A=x\nNVIDIA_DISABLE_REQUIRE=true","NVIDIA_REQUIRE_CUDA=cuda>=13.0"]"#;
        let env = ImageEnv::from_json("img", text).unwrap();
        assert_eq!(env.get("NVIDIA_DISABLE_REQUIRE"), None);
        assert_eq!(env.get("A"), Some("x\nNVIDIA_DISABLE_REQUIRE=true"));
        assert_eq!(env.get("NVIDIA_REQUIRE_CUDA"), Some("cuda>=13.0"));
    }

    #[rstest]
    // split once, at the first `=`; keys are not trimmed (the toolkit's SplitN does not)
    #[case(r#"["A=1=2","B==","C="]"#, &[("A", "1=2"), ("B", "="), ("C", "")])]
    #[case(r#"["A=1","A=2"]"#, &[("A", "2")])]
    #[case("null\n", &[])]
    #[case("[]", &[])]
    #[case(r#"["X=\u003c\u0026"]"#, &[("X", "<&")])]
    fn the_json_form(#[case] text: &str, #[case] want: &[(&str, &str)]) {
        let env = ImageEnv::from_json("img", text).unwrap();
        let got: Vec<(&str, &str)> = env
            .vars()
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(got, want);
    }

    #[rstest]
    #[case(
        r#"["NOEQUALS"]"#,
        "has the entry 'NOEQUALS', which is no KEY=VALUE pair"
    )]
    #[case(r#"{"A":"1"}"#, "is not the JSON list of strings")]
    #[case(r#"[1]"#, "is not the JSON list of strings")]
    #[case(
        "[\"A=1\"",
        "is not the JSON list of strings \"--format '{{json .Config.Env}}'\" prints"
    )]
    fn what_the_json_form_refuses(#[case] text: &str, #[case] says: &str) {
        let err = ImageEnv::from_json("img", text).unwrap_err().to_string();
        assert!(err.starts_with(says), "{err}");
    }

    #[test]
    fn read_takes_either_form() {
        let lines = ImageEnv::read("f", "A=1\nB=2\n").unwrap();
        let json = ImageEnv::read("f", "  [\"A=1\",\"B=2\"]\n").unwrap();
        assert_eq!(lines.vars(), json.vars());
        assert!(ImageEnv::read("f", "[broken").is_err());
    }

    #[test]
    fn set_unset_and_clear_overlay_an_environment() {
        let mut env = ImageEnv::parse("img", "A=1\nB=2\n");
        env.set("A", "3");
        env.unset("B");
        env.set("", "x");
        assert_eq!(env.vars(), [("A".to_string(), "3".to_string())]);
        env.clear();
        assert!(env.vars().is_empty());
    }
}
