//! `cargo xtask man`: gpuctl's manual pages, generated from its clap definition (so a new
//! subcommand or flag appears with no change here): `gpuctl.1` and one `gpuctl-<command>.1` per
//! subcommand, written to `<target dir>/man` unless `--out DIR` says otherwise.

use std::path::{Path, PathBuf};

use clap::CommandFactory;
use gpuctl_cli::{Cli, EXIT_INVALID, EXIT_OK, EXIT_UNSERVED};

/// Flags of `cargo xtask man`.
#[derive(Debug, Clone, clap::Args)]
pub struct ManArgs {
    /// Write the pages here instead of `<target dir>/man`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// One rendered page: its file name (`gpuctl-args.1`) and its roff text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The file name, section suffix included.
    pub file_name: String,
    /// The roff source.
    pub roff: String,
}

/// Renders every page, the top-level one first, then each visible subcommand's in definition
/// order. Pure: the same definition gives the same bytes (no date, no path, no clock).
pub fn pages() -> Result<Vec<Page>, String> {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let subs: Vec<clap::Command> = cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set())
        .cloned()
        .collect();
    let mut top = render(cmd)?;
    top.roff.push_str(&examples(TOP_EXAMPLES));
    top.roff.push_str(&exit_status());
    top.roff.push_str(&see_also(&subs));
    let mut all = vec![top];
    for sub in subs {
        let name = sub.get_name().to_string();
        // A command with subcommands of its own (`cdi`) gets a page for each, which its page's
        // SUBCOMMANDS section names (`gpuctl-cdi-list(1)`).
        let nested: Vec<clap::Command> = sub
            .get_subcommands()
            .filter(|s| !s.is_hide_set())
            .cloned()
            .collect();
        let mut page = render(sub)?;
        if let Some((_, list)) = SUB_EXAMPLES.iter().find(|(n, _)| *n == name) {
            page.roff.push_str(&examples(list));
        }
        page.roff.push_str(&exit_status());
        page.roff.push_str(".SH \"SEE ALSO\"\n\\fBgpuctl\\fR(1)\n");
        all.push(page);
        for n in nested {
            // A nested page shows its parent's examples that run it (`cdi list` on
            // gpuctl-cdi-list(1)).
            let words = format!("{name} {}", n.get_name());
            let own: Vec<(&str, &str)> = SUB_EXAMPLES
                .iter()
                .filter(|(n, _)| *n == name)
                .flat_map(|(_, list)| list.iter().copied())
                .filter(|(cmd, _)| cmd.contains(&words))
                .collect();
            let mut page = render(n)?;
            if !own.is_empty() {
                page.roff.push_str(&examples(&own));
            }
            page.roff.push_str(&exit_status());
            page.roff.push_str(&format!(
                ".SH \"SEE ALSO\"\n\\fBgpuctl\\-{}\\fR(1), \\fBgpuctl\\fR(1)\n",
                name.replace('-', "\\-")
            ));
            all.push(page);
        }
    }
    Ok(all)
}

fn render(cmd: clap::Command) -> Result<Page, String> {
    // Subcommands carry no version of their own; every page names the gpuctl it documents.
    let man = clap_mangen::Man::new(cmd)
        .manual("gpuctl manual")
        .source(format!(
            "gpuctl {}",
            Cli::command().get_version().unwrap_or_default()
        ));
    let mut roff = Vec::new();
    man.render(&mut roff)
        .map_err(|e| format!("cannot render {} ({e})", man.get_filename()))?;
    let roff = String::from_utf8(roff)
        .map_err(|e| format!("{} is not UTF-8 ({e})", man.get_filename()))?;
    Ok(Page {
        file_name: man.get_filename(),
        roff,
    })
}

/// The exit codes, from the constants the CLI returns, so the page cannot drift from them.
fn exit_status() -> String {
    format!(
        ".SH \"EXIT STATUS\"\n\
         .TP\n\\fB{EXIT_OK}\\fR\nSuccess (\\fBexplain\\fR: a GPU problem was found and explained; \
         \\fBdoctor\\fR: no problem found).\n\
         .TP\n\\fB{EXIT_UNSERVED}\\fR\nThe host cannot serve the request, the driver does not satisfy \
         the requirement, the GPUs need conflicting drivers, \\fBdoctor\\fR found a problem, or \
         \\fBexplain\\fR found no GPU problem.\n\
         .TP\n\\fB{EXIT_INVALID}\\fR\nInvalid input: selector, device id, driver spec, table file, \
         flags, a missing \\fB\\-\\-root\\fR.\n\
         .PP\n\\fBrun\\fR exits with the container engine's own code (125, 126 and 127 included) once \
         the engine has started; before that, with {EXIT_UNSERVED} or {EXIT_INVALID} as above.\n"
    )
}

/// Examples for the top page: what a new user types first.
const TOP_EXAMPLES: &[(&str, &str)] = &[
    (
        "gpuctl detect",
        "What the host offers, vendor by vendor, and why.",
    ),
    (
        "podman run --rm $(gpuctl args nvidia) IMAGE nvidia-smi -L",
        "Give a container every NVIDIA GPU.",
    ),
    (
        "gpuctl doctor",
        "Check the host before a GPU container starts.",
    ),
    (
        "podman run ... 2> podman.err; gpuctl explain podman.err",
        "Explain why a GPU container failed.",
    ),
];

/// Examples per subcommand page.
const SUB_EXAMPLES: &[(&str, &[(&str, &str)])] = &[
    (
        "args",
        &[
            (
                "podman run --rm $(gpuctl args all) IMAGE",
                "Give a container every GPU this host can serve.",
            ),
            (
                "gpuctl args none",
                "No GPU: prints nothing (a selector is required; none or '' asks for no GPU).",
            ),
            (
                "gpuctl args amd:1 intel",
                "The second AMD GPU and every Intel GPU.",
            ),
            (
                "gpuctl args intel:0000-08-00-0-0x56a5",
                "On a CDI host, the device the vendor's spec names so.",
            ),
            (
                "gpuctl --podman-version 4.9.3 args --format quadlet amd",
                "Quadlet keys for the podman that will read them.",
            ),
        ],
    ),
    (
        "detect",
        &[("gpuctl detect --format json", "The same answer as JSON.")],
    ),
    (
        "requirement",
        &[
            (
                "gpuctl requirement",
                "The driver stack this host's GPUs need.",
            ),
            (
                "gpuctl requirement --driver open:580 10de:2684",
                "Whether NVIDIA's open module 580 drives an RTX 4090.",
            ),
        ],
    ),
    (
        "explain",
        &[(
            "podman run ... 2>&1 | gpuctl explain",
            "Diagnose podman's error text from standard input.",
        )],
    ),
    (
        "doctor",
        &[(
            "gpuctl doctor amd",
            "Check what an AMD GPU container needs.",
        )],
    ),
    (
        "run",
        &[
            (
                "gpuctl run --gpus amd --rm rocm/rocm-terminal rocminfo",
                "Run podman with the AMD GPUs; a GPU failure is explained.",
            ),
            (
                "gpuctl run --gpus nvidia --dry-run IMAGE",
                "Print the podman command line instead.",
            ),
        ],
    ),
    (
        "report",
        &[
            (
                "gpuctl report --output /etc/ansible/facts.d/gpuctl.fact",
                "The host's report as an Ansible local fact (ansible_local.gpuctl).",
            ),
            (
                "gpuctl report --format nfd --output /etc/kubernetes/node-feature-discovery/features.d/gpuctl --every 300",
                "Node Feature Discovery labels, rewritten every five minutes until SIGTERM.",
            ),
        ],
    ),
    (
        "fleet",
        &[
            (
                "gpuctl fleet reports/",
                "Plan every report in a directory: the driver stack per vendor, or what divides the hosts; the release per group, the hosts to change, drift by severity and the order.",
            ),
            (
                "kubectl get nodes -o json | gpuctl fleet -",
                "Plan a cluster from the gpuctl.io labels the DaemonSet writes, saying what labels cannot tell.",
            ),
            (
                "gpuctl fleet --cuda 12.4 --format json reports/",
                "The same as JSON, with the hosts that can run a CUDA 12.4 image.",
            ),
        ],
    ),
    (
        "cdi",
        &[
            (
                "gpuctl cdi list --format json",
                "Every CDI device name podman resolves, the file that wins it, what is shadowed or skipped.",
            ),
            (
                "gpuctl --podman-version 4.6 cdi check /etc/cdi",
                "Which specs podman 4.6 loads, and the library's reason for each it does not.",
            ),
            (
                "sudo gpuctl cdi generate amd --output /etc/cdi/amd.json",
                "Write an amd.com/gpu spec named as amd-ctk names its devices (0, 1, ..., all).",
            ),
        ],
    ),
    (
        "completions",
        &[(
            "gpuctl completions bash > ~/.local/share/bash-completion/completions/gpuctl",
            "Install bash completion for one user.",
        )],
    ),
];

/// An EXAMPLES section: each command in bold, its purpose below.
fn examples(list: &[(&str, &str)]) -> String {
    let mut out = String::from(".SH EXAMPLES\n");
    for (command, what) in list {
        out.push_str(&format!(
            ".TP\n\\fB{}\\fR\n{}\n",
            roff_escape(command),
            what
        ));
    }
    out
}

/// A command line as roff text: backslashes as `\e`, `-` as `\-` (a hyphen, not a minus).
/// Every example starts with a letter, so no line needs a guard against `.` or `'`.
fn roff_escape(text: &str) -> String {
    text.replace('\\', "\\e").replace('-', "\\-")
}

fn see_also(subs: &[clap::Command]) -> String {
    let refs: Vec<String> = subs
        .iter()
        .map(|s| format!("\\fBgpuctl\\-{}\\fR(1)", s.get_name()))
        .collect();
    format!(
        ".SH \"SEE ALSO\"\n{}, \\fBpodman\\-run\\fR(1)\n",
        refs.join(", ")
    )
}

/// Writes the pages into `dir` (created if missing) and returns their paths.
pub fn write(dir: &Path) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {} ({e})", dir.display()))?;
    let mut written = Vec::new();
    for page in pages()? {
        let path = dir.join(&page.file_name);
        std::fs::write(&path, page.roff)
            .map_err(|e| format!("cannot write {} ({e})", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// Runs `cargo xtask man`: writes the pages and prints where they went.
pub fn run(args: &ManArgs) -> Result<bool, String> {
    let dir = match &args.out {
        Some(dir) => dir.clone(),
        None => target_dir().join("man"),
    };
    for path in write(&dir)? {
        println!("{}", path.display());
    }
    println!("read one with: man -l {}", dir.join("gpuctl.1").display());
    Ok(true)
}

/// The workspace's target directory: `CARGO_TARGET_DIR` when set, else `<workspace>/target`
/// (a `build.target-dir` in a cargo config is not read: pass `--out` then).
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::gpuctl::workspace_root().join("target"))
}

#[cfg(test)]
#[path = "man_tests.rs"]
mod tests;
