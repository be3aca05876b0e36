//! `gpuctl completions SHELL`: a completion script generated from the clap definition, so a
//! subcommand or flag added anywhere in the CLI is completed with no change here.

use std::io::Write;

use clap::CommandFactory;
use clap::builder::PossibleValuesParser;
use clap_complete::Shell;
use gpuctl_core::plugin::RESERVED_NAMES;
use gpuctl_core::plugin::Registry;

use crate::write_out;
use crate::{Cli, CliError, Outcome};

/// Flags of `gpuctl completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to complete for (bash, zsh, fish, elvish, powershell).
    #[arg(value_name = "SHELL")]
    pub shell: Shell,
}

/// Prints the completion script on stdout.
pub fn run(a: &CompletionsArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    // clap_complete panics when its writer fails, so the script is built in memory and written
    // by the one function that turns a write failure into a sentence.
    let mut script = Vec::new();
    clap_complete::generate(a.shell, &mut with_selector_words(), "gpuctl", &mut script);
    write_out(out, &String::from_utf8_lossy(&script))?;
    Ok(Outcome::Served)
}

/// The command line with the selector words (`all`, `none`, `true`, `false`) and the linked
/// vendors' names as the values a selector completes to (the vendors' alone for `cdi generate`).
/// Only the completion script sees them: parsing takes any selector (`nvidia:0`,
/// `intel:<CDI name>`) and checks it itself.
fn with_selector_words() -> clap::Command {
    let vendors = Registry::discovered().names();
    let mut words: Vec<&'static str> = RESERVED_NAMES.to_vec();
    words.extend(vendors.iter().copied());
    let words = move |a: clap::Arg| a.value_parser(PossibleValuesParser::new(words.clone()));
    // `cdi generate` takes one vendor name, never a selection.
    let vendor = move |a: clap::Arg| a.value_parser(PossibleValuesParser::new(vendors.clone()));
    Cli::command()
        .mut_subcommand("args", |c| c.mut_arg("selectors", words.clone()))
        .mut_subcommand("doctor", |c| c.mut_arg("selectors", words.clone()))
        .mut_subcommand("run", |c| c.mut_arg("gpus", words))
        .mut_subcommand("cdi", |c| {
            c.mut_subcommand("generate", |g| g.mut_arg("vendor", vendor))
        })
}
