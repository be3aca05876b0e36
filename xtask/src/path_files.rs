//! `cargo xtask path-files`: which of the workspace's source files a gpuctl command runs code
//! from, as a measure of how many files a reader must follow from `main` to the output.
//!
//! It runs the debug gpuctl under callgrind (valgrind must be installed) on a bundled host,
//! then lists every workspace file that holds a function the run executed. Code that clap's
//! derive macros generate is attributed to the file of the struct it derives from (each
//! subcommand's flags); a file whose executed functions are all such glue is listed apart,
//! since a reader following one command never opens another command's file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::Command;

use crate::gpuctl;

/// Flags of `cargo xtask path-files`.
#[derive(Debug, Clone, clap::Args)]
pub struct PathFilesArgs {
    /// The bundled host to run on (a directory under tests/hosts).
    #[arg(long, default_value = "workstation")]
    pub host: String,

    /// The gpuctl command line after `--root` (default: `args all`).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub command: Vec<String>,
}

/// Files holding executed functions, split into the files a reader follows and the files whose
/// executed code is all generated glue.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct PathFiles {
    /// Workspace-relative files (`core/src/plan.rs`) with real code executed.
    pub followed: BTreeSet<String>,
    /// Files whose executed functions are all derive glue.
    pub glue_only: BTreeSet<String>,
}

/// Runs the task.
pub fn run(args: &PathFilesArgs) -> Result<bool, String> {
    let bin = gpuctl::build()?;
    let root = gpuctl::workspace_root();
    let host = root.join("tests/hosts").join(&args.host);
    if !host.is_dir() {
        return Err(format!("no bundled host {:?} (see tests/hosts)", args.host));
    }
    let command = if args.command.is_empty() {
        vec!["args".to_string(), "all".to_string()]
    } else {
        args.command.clone()
    };
    let out: PathBuf = bin.target_dir.join("xtask-path-files.callgrind");
    let status = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(&bin.bin)
        .arg("--root")
        .arg(&host)
        .args(&command)
        .output()
        .map_err(|e| format!("cannot run valgrind ({e}); install it (apt install valgrind)"))?;
    // valgrind exits with gpuctl's own code (0, 1 or 2 are answers); anything else is a failure.
    if !matches!(status.status.code(), Some(0..=2)) || !out.is_file() {
        return Err(format!(
            "valgrind failed (exit {:?}) or wrote no profile: {}",
            status.status.code(),
            String::from_utf8_lossy(&status.stderr).trim()
        ));
    }
    let text = std::fs::read_to_string(&out)
        .map_err(|e| format!("cannot read {} ({e})", out.display()))?;
    let files = parse(&text);
    println!(
        "gpuctl --root tests/hosts/{} {}: code from {} workspace files",
        args.host,
        command.join(" "),
        files.followed.len()
    );
    for f in &files.followed {
        println!("  {f}");
    }
    if !files.glue_only.is_empty() {
        let glue: Vec<&str> = files.glue_only.iter().map(String::as_str).collect();
        println!("not counted, clap derive glue only: {}", glue.join(", "));
    }
    Ok(true)
}

/// Reads a callgrind profile: `fl=`/`fi=`/`fe=` name the file of the functions that follow,
/// `fn=` a function; both use `(id) name` the first time and `(id)` afterwards.
pub fn parse(profile: &str) -> PathFiles {
    let mut file_names: BTreeMap<String, String> = BTreeMap::new();
    let mut fn_names: BTreeMap<String, String> = BTreeMap::new();
    let mut functions: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut file: Option<String> = None;
    for line in profile.lines() {
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        match key {
            "fl" | "fi" | "fe" => file = named(&mut file_names, value),
            "cfl" | "cfi" => {
                named(&mut file_names, value);
            }
            "cfn" => {
                named(&mut fn_names, value);
            }
            "fn" => {
                let function = named(&mut fn_names, value).unwrap_or_default();
                if let Some(rel) = file.as_deref().and_then(workspace_relative) {
                    functions.entry(rel).or_default().insert(function);
                }
            }
            _ => {}
        }
    }
    let mut files = PathFiles::default();
    for (file, fns) in functions {
        if fns.iter().all(|f| is_derive_glue(f)) {
            files.glue_only.insert(file);
        } else {
            files.followed.insert(file);
        }
    }
    files
}

/// `(id) name` records the name; `(id)` looks it up.
fn named(table: &mut BTreeMap<String, String>, value: &str) -> Option<String> {
    let value = value.trim();
    let rest = value.strip_prefix('(')?;
    let (id, name) = rest.split_once(')')?;
    let name = name.trim();
    if !name.is_empty() {
        table.insert(id.to_string(), name.to_string());
    }
    table.get(id).cloned()
}

/// `.../crates/core/src/plan.rs` as `core/src/plan.rs`; files outside the workspace's crates
/// (std, dependencies) are not the reader's.
fn workspace_relative(path: &str) -> Option<String> {
    let (_, rel) = path.rsplit_once("/crates/")?;
    let krate = rel.split('/').next()?;
    matches!(
        krate,
        "cdi" | "host" | "requirement" | "cli" | "core" | "nvidia" | "amd" | "intel"
    )
    .then(|| rel.to_string())
}

/// Functions clap's derives generate for a subcommand's flags.
fn is_derive_glue(function: &str) -> bool {
    [
        "augment_args",
        "augment_subcommands",
        "from_arg_matches",
        "update_from_arg_matches",
        "value_variants",
        "to_possible_value",
        "has_subcommand",
        "group_id",
        "command_for_update",
    ]
    .iter()
    .any(|g| function.contains(g))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape callgrind writes: names given once with their id, then the id alone.
    const PROFILE: &str = "\
fl=(1) /w/crates/cli/src/lib.rs
fn=(1) gpuctl_cli::main_entry
0 5
cfl=(2) /w/crates/core/src/plan.rs
cfn=(2) gpuctl_core::plugin::Plan::new
calls=1 0
0 3
fl=(3) /w/crates/cli/src/detect_cmd.rs
fn=(3) <gpuctl_cli::detect_cmd::DetectArgs as clap_builder::derive::Args>::augment_args
0 1
fl=(2)
fn=(2)
0 3
fl=(4) /rustc/abc/library/core/src/fmt/mod.rs
fn=(4) core::fmt::write
0 9
fl=(5) /w/crates/cdi/src/goyaml/load.rs
fn=(5) gpuctl_cdi::goyaml::load::load
0 1
";

    #[test]
    fn lists_workspace_files_and_sets_glue_apart() {
        let files = parse(PROFILE);
        let followed: Vec<&str> = files.followed.iter().map(String::as_str).collect();
        assert_eq!(
            followed,
            [
                "cdi/src/goyaml/load.rs",
                "cli/src/lib.rs",
                "core/src/plan.rs"
            ]
        );
        let glue: Vec<&str> = files.glue_only.iter().map(String::as_str).collect();
        assert_eq!(glue, ["cli/src/detect_cmd.rs"]);
    }

    /// Host access and the requirement model are crates of their own (issue 27); a command that
    /// runs their code is still following those files.
    #[test]
    fn the_host_and_requirement_crates_are_the_workspace_s() {
        let files = parse(
            "fl=(1) /w/crates/host/src/pci.rs\nfn=(1) gpuctl_host::pci::PciScan::read\n\
             fl=(2) /w/crates/requirement/src/verdict.rs\nfn=(2) gpuctl_requirement::Fit::as_str\n",
        );
        let followed: Vec<&str> = files.followed.iter().map(String::as_str).collect();
        assert_eq!(followed, ["host/src/pci.rs", "requirement/src/verdict.rs"]);
    }

    #[test]
    fn a_called_function_counts_only_where_it_runs() {
        // plan.rs appears as a callee (cfl=) and then with its own fn= line: counted once.
        let files = parse("cfl=(1) /w/crates/core/src/plan.rs\ncfn=(1) f\n");
        assert!(files.followed.is_empty());
    }
}
