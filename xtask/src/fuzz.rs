//! `cargo xtask fuzz`: seeds each fuzz target's corpus with what the tests already hold, then
//! runs the targets one after another with cargo-fuzz in `--sanitizer none` mode, which builds
//! on stable Rust. cargo-fuzz is installed when missing (the only step that needs the network).
//! A crash leaves its input under fuzz/artifacts/<target>/; copy it to
//! fuzz/regressions/<target>/ with the fix, where the workspace tests replay it.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The targets, in the order they run (fuzz/fuzz_targets/<name>.rs).
pub const TARGETS: &[&str] = &[
    "selector",
    "cdi_spec",
    "cdi_dir",
    "cdi_fast",
    "explain",
    "ids",
    "site_table",
];

/// Flags of `cargo xtask fuzz`.
#[derive(Debug, Clone, clap::Args)]
pub struct FuzzArgs {
    /// Seconds each target runs.
    #[arg(long, default_value_t = 30)]
    pub seconds: u64,

    /// Only seed the corpora; run nothing.
    #[arg(long)]
    pub seed_only: bool,

    /// The targets to run (all by default).
    #[arg(value_name = "TARGET")]
    pub targets: Vec<String>,
}

/// Runs the task; `Ok(false)` when a target crashed.
pub fn run(args: &FuzzArgs) -> Result<bool, String> {
    let repo = repo_root();
    let targets: Vec<&str> = if args.targets.is_empty() {
        TARGETS.to_vec()
    } else {
        for t in &args.targets {
            if !TARGETS.contains(&t.as_str()) {
                return Err(format!("no fuzz target {t:?}; the targets are {TARGETS:?}"));
            }
        }
        args.targets.iter().map(String::as_str).collect()
    };
    let seeds = Seeds::gather(&repo)?;
    for target in &targets {
        let n = seeds.write(target, &repo.join("fuzz/corpus").join(target))?;
        eprintln!("fuzz: {target}: {n} seed inputs");
    }
    if args.seed_only {
        return Ok(true);
    }
    ensure_cargo_fuzz()?;
    let mut failed = 0usize;
    for target in &targets {
        eprintln!("fuzz: {target}: running {} s", args.seconds);
        let status = Command::new("cargo")
            .current_dir(repo.join("fuzz"))
            .args([
                "fuzz",
                "run",
                "--sanitizer",
                "none",
                "--debug-assertions",
                target,
            ])
            .arg(repo.join("fuzz/corpus").join(target))
            .arg("--")
            .arg(format!("-max_total_time={}", args.seconds))
            // A slow input is a finding too (a parser that is quadratic on hostile text).
            .args(["-timeout=10", "-rss_limit_mb=1024", "-max_len=65536"])
            .args(["-print_final_stats=1"])
            .status()
            .map_err(|e| format!("cannot run cargo fuzz: {e}"))?;
        if !status.success() {
            eprintln!("fuzz: {target} FAILED; the input is under fuzz/artifacts/{target}/");
            failed += 1;
        }
    }
    // One closing line a reader (or CI) can take in at a glance after libFuzzer's own output.
    println!("fuzz: {} passed, {failed} failed", targets.len() - failed);
    Ok(failed == 0)
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Installs cargo-fuzz unless `cargo fuzz` already runs, so a second CI run needs no network.
fn ensure_cargo_fuzz() -> Result<(), String> {
    let present = Command::new("cargo")
        .args(["fuzz", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if present {
        return Ok(());
    }
    eprintln!("fuzz: installing cargo-fuzz");
    let status = Command::new("cargo")
        .args(["install", "--locked", "cargo-fuzz"])
        .status()
        .map_err(|e| format!("cannot run cargo install: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err("cargo install cargo-fuzz failed".to_string())
    }
}

/// What the tests hold: spec files, other text files, and the string literals of the sources.
struct Seeds {
    specs: Vec<Vec<u8>>,
    spec_dirs: Vec<Vec<Vec<u8>>>,
    texts: Vec<Vec<u8>>,
    literals: Vec<String>,
}

impl Seeds {
    fn gather(repo: &Path) -> Result<Seeds, String> {
        let mut files = Vec::new();
        for dir in ["tests", "crates", "fuzz/regressions"] {
            walk(&repo.join(dir), &mut files);
        }
        let mut seeds = Seeds {
            specs: Vec::new(),
            spec_dirs: Vec::new(),
            texts: Vec::new(),
            literals: Vec::new(),
        };
        for path in &files {
            let Ok(bytes) = std::fs::read(path) else {
                continue;
            };
            if bytes.len() > 256 * 1024 {
                continue;
            }
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            match ext {
                "rs" => seeds
                    .literals
                    .extend(string_literals(&String::from_utf8_lossy(&bytes))),
                "json" | "yaml" | "yml" => seeds.specs.push(bytes),
                _ => seeds.texts.push(bytes),
            }
        }
        // Each fixture host's spec directory, whole, for the directory target.
        if let Ok(hosts) = std::fs::read_dir(repo.join("tests/hosts")) {
            for host in hosts.flatten() {
                for dir in ["etc/cdi", "var/run/cdi"] {
                    let mut specs = Vec::new();
                    walk(&host.path().join(dir), &mut specs);
                    let pieces: Vec<Vec<u8>> =
                        specs.iter().filter_map(|p| std::fs::read(p).ok()).collect();
                    if !pieces.is_empty() {
                        seeds.spec_dirs.push(pieces);
                    }
                }
            }
        }
        Ok(seeds)
    }

    /// Writes the seeds that suit `target` into `dir`, named by content, and returns how many.
    fn write(&self, target: &str, dir: &Path) -> Result<usize, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let short = || {
            self.literals
                .iter()
                .filter(|l| l.len() <= 256)
                .map(|l| l.as_bytes().to_vec())
        };
        let spec_like = |l: &&String| l.contains("cdiVersion") || l.contains("kind");
        // Every spec file the tests hold, and the test literals that look like one.
        let specs = || {
            self.specs.iter().cloned().chain(
                self.literals
                    .iter()
                    .filter(spec_like)
                    .map(|l| l.as_bytes().to_vec()),
            )
        };
        let site_like = |l: &&String| l.contains("branch") || l.contains("generation");
        let inputs: Vec<Vec<u8>> = match target {
            "selector" | "ids" => short().collect(),
            "explain" => self
                .texts
                .iter()
                .cloned()
                .chain(self.literals.iter().map(|l| l.as_bytes().to_vec()))
                .collect(),
            "cdi_spec" => specs()
                .flat_map(|s| [prefixed(0, &s), prefixed(1, &s)])
                .collect(),
            // The raw spec, and the benchmark's generator-shaped specs: the fast path's subset.
            "cdi_fast" => specs().chain(bench_specs()).collect(),
            "site_table" => self
                .literals
                .iter()
                .filter(site_like)
                .map(|l| l.as_bytes().to_vec())
                .chain(self.specs.iter().cloned())
                .flat_map(|s| [prefixed(0, &s), prefixed(1, &s)])
                .collect(),
            "cdi_dir" => self
                .spec_dirs
                .iter()
                .map(|pieces| {
                    let mut out = Vec::new();
                    for (i, p) in pieces.iter().enumerate() {
                        // Alternate .json/.yaml names; the parser reads either as YAML anyway.
                        out.extend(prefixed(u8::try_from(i % 8).unwrap_or(0), p));
                        out.push(0xFF);
                    }
                    out
                })
                .chain(self.specs.iter().map(|s| prefixed(1, s)))
                .collect(),
            _ => Vec::new(),
        };
        let mut n = 0;
        for input in inputs {
            let mut h = DefaultHasher::new();
            input.hash(&mut h);
            let path = dir.join(format!("seed-{:016x}", h.finish()));
            if !path.exists() {
                std::fs::write(&path, &input)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
            n += 1;
        }
        Ok(n)
    }
}

/// The benchmark hosts' specs at 2 and 8 GPUs, in both formats.
fn bench_specs() -> Vec<Vec<u8>> {
    use crate::bench::hosts::{SpecFormat, spec};
    [2, 8]
        .into_iter()
        .flat_map(|gpus| [SpecFormat::Json, SpecFormat::Yaml].map(|f| spec(gpus, f)))
        .filter_map(Result::ok)
        .map(String::into_bytes)
        .collect()
}

fn prefixed(first: u8, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 1);
    out.push(first);
    out.extend_from_slice(body);
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            walk(&entry.path(), out);
        } else if kind.is_file() {
            out.push(entry.path());
        }
    }
}

/// The string literals of Rust source, plain (`"..."`, with the common escapes undone) and raw
/// (`r#"..."#`): good enough to seed a fuzzer, not a Rust lexer.
pub fn string_literals(source: &str) -> Vec<String> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'r' && (bytes.get(i + 1) == Some(&b'#') || bytes.get(i + 1) == Some(&b'"'))
        {
            let hashes = bytes[i + 1..].iter().take_while(|&&b| b == b'#').count();
            let open = i + 1 + hashes;
            if bytes.get(open) == Some(&b'"') {
                let close = format!("\"{}", "#".repeat(hashes));
                if let Some(end) = source[open + 1..].find(&close) {
                    out.push(source[open + 1..open + 1 + end].to_string());
                    i = open + 1 + end + close.len();
                    continue;
                }
            }
        }
        if bytes[i] == b'\'' {
            // A char literal such as '"' must not open a string.
            if bytes.get(i + 2) == Some(&b'\'') {
                i += 3;
                continue;
            }
            if bytes.get(i + 1) == Some(&b'\\') && bytes.get(i + 3) == Some(&b'\'') {
                i += 4;
                continue;
            }
        }
        if bytes[i] == b'"' {
            let mut text = String::new();
            let mut j = i + 1;
            let mut chars = source[j..].chars();
            while let Some(c) = chars.next() {
                j += c.len_utf8();
                match c {
                    '"' => break,
                    '\\' => {
                        let Some(e) = chars.next() else { break };
                        j += e.len_utf8();
                        match e {
                            'n' => text.push('\n'),
                            't' => text.push('\t'),
                            '0' => text.push('\0'),
                            '\n' => {
                                let rest = chars.as_str();
                                let trimmed = rest.trim_start();
                                j += rest.len() - trimmed.len();
                                chars = trimmed.chars();
                            }
                            other => text.push(other),
                        }
                    }
                    c => text.push(c),
                }
            }
            out.push(text);
            i = j;
            continue;
        }
        i += 1;
    }
    out
}
