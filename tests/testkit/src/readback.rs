//! Reads gpuctl's Quadlet, compose and docker renderings back into the podman arguments they
//! stand for, the way their consumers read them, so tests can hold every format against
//! `gpuctl args --format json` item for item.
//!
//! Quadlet: a small INI reader plus systemd's word splitting (podman's pkg/systemd/parser:
//! `AddDevice=` is split into words and unquoted, `Environment=` and `Mount=` are split,
//! unquoted and C-unescaped, `GroupAdd=` is the line as it is; `%%` and `$$` are a literal `%`
//! and `$` once systemd expands the generated `ExecStart=`). compose values are interpolated:
//! `$$` is a literal `$`. compose: YAML through yaml_serde, the keys podman-compose maps
//! to flags (`devices` → `--device`, `environment` → `-e`, `volumes` → a bind, `group_add` →
//! `--group-add`); binds left in a comment are read too, uncommented.

use yaml_serde::Value;

/// podman pairs, flag then value.
pub type Pairs = Vec<(String, String)>;

/// The pairs of a podman argument list (`["--device", "x", ...]`).
pub fn pairs(args: &[String]) -> Pairs {
    args.chunks(2)
        .map(|c| (c[0].clone(), c.get(1).cloned().unwrap_or_default()))
        .collect()
}

/// The `(key, value)` lines of the `[Container]` section, in order; anything outside a
/// section, or a line that is neither a comment, a header nor `key=value`, is an error.
pub fn quadlet_keys(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut section = None;
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = Some(name.to_string());
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .ok_or(format!("not key=value: {line}"))?;
        match section.as_deref() {
            Some("Container") => out.push((key.trim().to_string(), value.trim().to_string())),
            other => return Err(format!("{key} in section {other:?}")),
        }
    }
    Ok(out)
}

/// systemd's word splitting with unquoting and C escapes (extract_first_word with
/// EXTRACT_UNQUOTE|EXTRACT_CUNESCAPE), then `%%` and `$$` as `%` and `$`.
pub fn systemd_words(value: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut chars = value.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            return Ok(words);
        }
        let mut word = String::new();
        let mut quote: Option<char> = None;
        while let Some(c) = chars.next() {
            match (c, quote) {
                ('\\', _) => {
                    let e = chars.next().ok_or("a trailing backslash")?;
                    word.push(match e {
                        'n' => '\n',
                        't' => '\t',
                        'x' => {
                            let hex: String = chars.by_ref().take(2).collect();
                            u8::from_str_radix(&hex, 16).map_err(|e| e.to_string())? as char
                        }
                        other => other,
                    });
                }
                ('"' | '\'', None) => quote = Some(c),
                (c, Some(q)) if c == q => quote = None,
                (c, None) if c.is_whitespace() => break,
                (c, _) => word.push(c),
            }
        }
        if quote.is_some() {
            return Err(format!("an unterminated quote in {value}"));
        }
        words.push(word.replace("%%", "%").replace("$$", "$"));
    }
}

/// The podman pairs a Quadlet `[Container]` section stands for, in order.
pub fn quadlet_to_podman(text: &str) -> Result<Pairs, String> {
    let mut out = Vec::new();
    for (key, value) in quadlet_keys(text)? {
        let flag = match key.as_str() {
            "AddDevice" => "--device",
            "Environment" => "-e",
            "Mount" => "--mount",
            "GroupAdd" => {
                let value = value.replace("%%", "%").replace("$$", "$");
                out.push(("--group-add".to_string(), value));
                continue;
            }
            // Quadlet splits PodmanArgs= into words and passes them on as they are; gpuctl
            // writes flag and value pairs there.
            "PodmanArgs" => {
                let words = systemd_words(&value)?;
                for pair in words.chunks(2) {
                    match pair {
                        [flag, value] => out.push((flag.clone(), value.clone())),
                        _ => return Err(format!("PodmanArgs= with an odd word: {value}")),
                    }
                }
                continue;
            }
            other => return Err(format!("a key gpuctl does not write: {other}")),
        };
        for w in systemd_words(&value)? {
            out.push((flag.to_string(), w));
        }
    }
    Ok(out)
}

fn strings(v: Option<&Value>, key: &str) -> Result<Vec<String>, String> {
    let Some(v) = v else {
        return Ok(Vec::new());
    };
    v.as_sequence()
        .ok_or(format!("{key} is not a list"))?
        .iter()
        .map(|i| {
            i.as_str()
                .map(|s| s.replace("$$", "$"))
                .ok_or(format!("{key}: {i:?}"))
        })
        .collect()
}

fn binds(v: Option<&Value>) -> Result<Vec<String>, String> {
    let Some(v) = v else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for m in v.as_sequence().ok_or("volumes is not a list")? {
        let get = |k: &str| {
            m.get(k)
                .and_then(Value::as_str)
                .ok_or(format!("volume {k}"))
        };
        if get("type")? != "bind" || m.get("read_only").and_then(Value::as_bool) != Some(true) {
            return Err(format!("not a read-only bind: {m:?}"));
        }
        out.push(
            format!(
                "type=bind,source={},destination={},ro=true",
                get("source")?,
                get("target")?
            )
            .replace("$$", "$"),
        );
    }
    Ok(out)
}

/// The podman pairs a compose fragment stands for, grouped by flag (compose keys are a map:
/// the order holds within a key): `--device`, `-e`, `--mount`, `--group-add`. Binds that the
/// fragment leaves in a `# volumes:` comment count as `--mount`.
pub fn compose_to_podman(text: &str) -> Result<Pairs, String> {
    let doc: Value = yaml_serde::from_str(text).map_err(|e| e.to_string())?;
    let mut mounts = binds(doc.get("volumes"))?;
    let commented: String = text
        .lines()
        .skip_while(|l| *l != "# volumes:")
        .map_while(|l| l.strip_prefix("# "))
        .map(|l| format!("{l}\n"))
        .collect();
    if !commented.is_empty() {
        let c: Value = yaml_serde::from_str(&commented).map_err(|e| e.to_string())?;
        mounts.extend(binds(c.get("volumes"))?);
    }
    let mut out = Vec::new();
    for (flag, values) in [
        ("--device", strings(doc.get("devices"), "devices")?),
        ("-e", strings(doc.get("environment"), "environment")?),
        ("--mount", mounts),
        ("--group-add", strings(doc.get("group_add"), "group_add")?),
    ] {
        out.extend(values.into_iter().map(|v| (flag.to_string(), v)));
    }
    Ok(out)
}

/// `pairs` grouped by flag in the order [`compose_to_podman`] uses, order kept within a flag.
pub fn grouped(pairs: &Pairs) -> Pairs {
    let mut out = Vec::new();
    for flag in ["--device", "-e", "--mount", "--group-add"] {
        out.extend(pairs.iter().filter(|(f, _)| f == flag).cloned());
    }
    out
}

/// The podman pairs a docker argument line stands for: docker's mount spelling turned into
/// podman's, and its numeric `--group-add` values, which stand for `keep-groups`, returned
/// apart.
pub fn docker_to_podman(line: &str) -> (Pairs, Vec<String>) {
    let args: Vec<String> = line.split_whitespace().map(str::to_string).collect();
    let mut out = Vec::new();
    let mut gids = Vec::new();
    for (flag, value) in pairs(&args) {
        match flag.as_str() {
            "--group-add" => {
                if gids.is_empty() {
                    out.push((flag, "keep-groups".to_string()));
                }
                gids.push(value);
            }
            "--mount" => out.push((
                flag,
                value
                    .replace(",target=", ",destination=")
                    .replace(",readonly", ",ro=true"),
            )),
            _ => out.push((flag, value)),
        }
    }
    (out, gids)
}

/// A Python with PyYAML, the YAML reader podman-compose uses: podman-compose's own venv (CI
/// installs it at /opt/podman-compose), else `python3` on PATH. `None` only when
/// `GPUCTL_NO_PYYAML` is set; otherwise a machine without PyYAML fails the test that asks, with
/// the remedy, so CI cannot pass without the real reader.
pub fn pyyaml_python() -> Option<std::path::PathBuf> {
    for p in ["/opt/podman-compose/bin/python3", "python3"] {
        let ok = std::process::Command::new(p)
            .args(["-c", "import yaml"])
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(p.into());
        }
    }
    if std::env::var_os("GPUCTL_NO_PYYAML").is_some() {
        return None;
    }
    panic!(
        "no python3 with PyYAML (podman-compose's YAML reader): install podman-compose (.ci/run does) or 'pip install pyyaml', or set GPUCTL_NO_PYYAML=1 to skip the PyYAML read-backs"
    );
}

/// `text` read as podman-compose reads a compose file (`yaml.safe_load`), as JSON; `Ok(None)`
/// when there is no PyYAML and `GPUCTL_NO_PYYAML` says to skip; `Err` with PyYAML's words when
/// it refuses the text.
pub fn pyyaml_load(text: &str) -> Result<Option<serde_json::Value>, String> {
    use std::io::Write;
    let Some(python) = pyyaml_python() else {
        return Ok(None);
    };
    let script = "import json, sys, yaml\nsys.stdout.write(json.dumps(yaml.safe_load(sys.stdin.buffer.read().decode('utf-8'))))";
    let mut child = std::process::Command::new(python)
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string())?;
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    serde_json::from_slice(&out.stdout)
        .map(Some)
        .map_err(|e| e.to_string())
}

/// podman's reading of a `--mount` value: the options split at every `,` (podman has no quoting
/// there), each split at its first `=` (pkg/specgenutil, `parseMountOptions`).
pub fn podman_mount_options(value: &str) -> Vec<(String, Option<String>)> {
    value
        .split(',')
        .map(|opt| match opt.split_once('=') {
            Some((k, v)) => (k.to_string(), Some(v.to_string())),
            None => (opt.to_string(), None),
        })
        .collect()
}
