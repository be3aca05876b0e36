//! An image's environment as core carries it: `KEY=VALUE` pairs, read from a file or from
//! podman. `requirement --image-env`, `doctor --image-env`/`--image` and `run` hand the same
//! type to every vendor ([`crate::backend::GpuBackend::image_checks`], the requirement model's
//! `VendorRequest`); what the pairs mean is each vendor's business (docs/image-check.md). A
//! leaf module, so both the requirement model and the checks can name it.

/// An image's environment: `KEY=VALUE` pairs in the image's order, a later value of a key
/// replacing an earlier one, as an environment does.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImageEnv {
    name: String,
    vars: Vec<(String, String)>,
}

impl ImageEnv {
    /// Reads `KEY=VALUE` lines (what `podman image inspect --format` with [`ENV_FORMAT`]
    /// prints); lines without `=` (blank ones, podman's trailing newline) are ignored. `name`
    /// is how sentences call the image (`the image`, or its reference).
    pub fn parse(name: impl Into<String>, text: &str) -> ImageEnv {
        let mut vars: Vec<(String, String)> = Vec::new();
        for line in text.lines() {
            let Some((k, v)) = line.split_once('=') else {
                continue;
            };
            let (k, v) = (k.trim(), v.trim_end_matches('\r'));
            if k.is_empty() {
                continue;
            }
            vars.retain(|(key, _)| key != k);
            vars.push((k.to_string(), v.to_string()));
        }
        ImageEnv {
            name: name.into(),
            vars,
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
}
