//! `gpuctl completions SHELL`: a completion script generated from the clap definition, so a
//! subcommand or flag added anywhere in the CLI is completed with no change here.

use std::io::Write;

use clap::CommandFactory;
use clap_complete::Shell;

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
    clap_complete::generate(a.shell, &mut Cli::command(), "gpuctl", &mut script);
    write_out(out, &String::from_utf8_lossy(&script))?;
    Ok(Outcome::Served)
}
