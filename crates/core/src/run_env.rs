//! The container's environment as the engine will set it: the image's, overlaid with `run`'s
//! environment options ([`crate::run_args::env_options`]). NVIDIA's hook reads the container's
//! environment, not the image's (`NewCUDAImageFromSpec` reads the OCI spec's `process.env`), so
//! `gpuctl run -e NVIDIA_DISABLE_REQUIRE=true` must be judged as the hook will see it
//! (docs/image-check.md, "The container's environment").
//!
//! The order is podman-run(1)'s ENVIRONMENT section (later entries override earlier ones):
//! the image, `--env-host`, each `--env-file` in turn, then each `--env`. `--unsetenv KEY` and
//! `--unsetenv-all` take the image's variables away first, `--env-merge` rewrites them.
//! podman's `-e KEY` without a value takes the host's value when the host has one (and `-e
//! PREFIX*` every host variable so named); docker's takes it or, when the host has none, removes
//! the variable (moby's `ReplaceOrAppendEnvValues`), and docker has no `PREFIX*`.

use std::io::Read;
use std::path::Path;

use crate::image_env::ImageEnv;
use crate::input;
use crate::launch::Engine;
use crate::run_args::EnvOption;

/// An env-file is a few KiB; more is not one.
const ENV_FILE_LIMIT: u64 = 1 << 20;

/// What the engine's environment options draw on besides the image: which engine reads them,
/// and the environment gpuctl (and so the engine it starts) runs in.
#[derive(Debug, Clone)]
pub struct RunHost {
    /// The engine that will read the options.
    pub engine: Engine,
    /// The environment the engine inherits.
    pub vars: Vec<(String, String)>,
}

impl RunHost {
    fn get(&self, key: &str) -> Option<&str> {
        self.vars
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// The container's environment: `image` overlaid with `options`. `Err` says, in a sentence
/// fragment, why it cannot be told (an env-file gpuctl must not or cannot read).
pub fn container_env(
    image: &ImageEnv,
    options: &[EnvOption],
    host: &RunHost,
) -> Result<ImageEnv, String> {
    let mut env = image.clone();
    let on = |want: fn(&EnvOption) -> Option<bool>| options.iter().rev().find_map(want);
    if on(|o| match o {
        EnvOption::UnsetAll(b) => Some(*b),
        _ => None,
    }) == Some(true)
    {
        env.clear();
    }
    for o in options {
        if let EnvOption::Unset(k) = o {
            env.unset(k);
        }
    }
    let image_now = env.clone();
    for o in options {
        if let EnvOption::Merge(kv) = o
            && let Some((k, v)) = kv.split_once('=')
        {
            env.set(k, &merge(v, &image_now));
        }
    }
    if on(|o| match o {
        EnvOption::EnvHost(b) => Some(*b),
        _ => None,
    }) == Some(true)
    {
        for (k, v) in &host.vars {
            env.set(k, v);
        }
    }
    for o in options {
        if let EnvOption::EnvFile(path) = o {
            for entry in env_file(Path::new(path), host.engine)? {
                apply(&mut env, &entry, host);
            }
        }
    }
    for o in options {
        if let EnvOption::Env(entry) = o {
            apply(&mut env, entry, host);
        }
    }
    Ok(env)
}

/// `--env-merge`'s value with each `${KEY}` replaced by the image's value of `KEY`.
fn merge(value: &str, image: &ImageEnv) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(at) = rest.find("${") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        match after.find('}') {
            Some(end) => {
                out.push_str(image.get(&after[..end]).unwrap_or(""));
                rest = &after[end + 1..];
            }
            None => {
                out.push_str(&rest[at..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// One `-e` entry (or an env-file line) applied as the engine applies it.
fn apply(env: &mut ImageEnv, entry: &str, host: &RunHost) {
    if let Some((k, v)) = entry.split_once('=') {
        env.set(k, v);
        return;
    }
    if host.engine == Engine::Podman
        && let Some(prefix) = entry.strip_suffix('*')
    {
        for (k, v) in host.vars.iter().filter(|(k, _)| k.starts_with(prefix)) {
            env.set(k, v);
        }
        return;
    }
    match host.get(entry) {
        Some(v) => env.set(entry, v),
        None if host.engine == Engine::Docker => env.unset(entry),
        None => {}
    }
}

/// The entries of the env-file at `path` ([`env_file_entries`]). Only a regular file is read:
/// a FIFO (`--env-file <(...)`) read here would be empty for the engine.
fn env_file(path: &Path, engine: Engine) -> Result<Vec<String>, String> {
    let why = |e: String| format!("--env-file {} {e}", path.display());
    let file = input::open_regular(path).map_err(|e| why(format!("cannot be read ({e})")))?;
    let mut bytes = Vec::new();
    file.take(ENV_FILE_LIMIT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| why(format!("cannot be read ({e})")))?;
    if bytes.len() as u64 > ENV_FILE_LIMIT {
        return Err(why(format!(
            "is larger than {} KiB, which no env-file is",
            ENV_FILE_LIMIT / 1024
        )));
    }
    let text = String::from_utf8(bytes).map_err(|_| why("is not UTF-8 text".into()))?;
    Ok(env_file_entries(&text, engine))
}

/// The entries of an env-file's text: `KEY=VALUE`, `KEY` or `PREFIX*` lines; blank lines and
/// `#` comments skipped, blanks around the key dropped. podman (5.x, podman-run(1)'s
/// `--env-file`) also takes `export KEY=...` and a value in single or double quotes, which may
/// span lines; docker takes every value as written.
pub fn env_file_entries(text: &str, engine: Engine) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let line = line.trim_start_matches([' ', '\t']);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let line = match engine {
            Engine::Podman => line.strip_prefix("export ").unwrap_or(line),
            Engine::Docker => line,
        };
        let Some((key, value)) = line.split_once('=') else {
            out.push(line.trim_end_matches([' ', '\t']).to_string());
            continue;
        };
        let key = key.trim_end_matches([' ', '\t']);
        if key.is_empty() {
            continue;
        }
        let value = match engine {
            Engine::Podman => unquote(value, &mut lines),
            Engine::Docker => value.to_string(),
        };
        out.push(format!("{key}={value}"));
    }
    out
}

/// A podman env-file value: in single or double quotes (to the closing one, over lines), or as
/// written.
fn unquote<'a>(value: &str, lines: &mut impl Iterator<Item = &'a str>) -> String {
    let Some(q) = value.chars().next().filter(|c| *c == '"' || *c == '\'') else {
        return value.to_string();
    };
    let mut inner = value[1..].to_string();
    loop {
        if let Some(end) = inner.find(q) {
            inner.truncate(end);
            return inner;
        }
        match lines.next() {
            Some(next) => {
                inner.push('\n');
                inner.push_str(next);
            }
            // No closing quote: the value as written.
            None => return value.to_string(),
        }
    }
}

#[cfg(test)]
#[path = "run_env_tests.rs"]
mod tests;
