//! Where gpuctl's words go: results on stdout, one sentence per warning or error on stderr.

use std::io::Write;

use crate::CliError;

/// Writes a result to stdout; a closed pipe (`gpuctl args | head -c0`) is not an error.
pub fn write_out(out: &mut dyn Write, text: &str) -> Result<(), CliError> {
    match out.write_all(text.as_bytes()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::Write {
            reason: e.to_string(),
        }),
    }
}

/// Prints warnings and errors on stderr.
#[derive(Debug, Clone)]
pub struct Ui {
    quiet: bool,
}

impl Ui {
    /// With `quiet`, warnings are not printed; errors always are.
    pub fn new(quiet: bool) -> Self {
        Ui { quiet }
    }

    /// One warning line.
    pub fn warn(&self, message: &str) {
        if !self.quiet {
            let _ = writeln!(std::io::stderr().lock(), "gpuctl: warning: {message}");
        }
    }

    /// Every warning, in order: sentences, or findings printed as their sentences.
    pub fn warn_all<S: std::fmt::Display>(&self, messages: &[S]) {
        for m in messages {
            self.warn(&m.to_string());
        }
    }

    /// One error line.
    pub fn error(&self, message: &str) {
        let _ = writeln!(std::io::stderr().lock(), "gpuctl: error: {message}");
    }
}

/// Sends `tracing` output to stderr: off by default, `-v` for debug, `-vv` for trace;
/// `RUST_LOG` overrides.
pub fn init_tracing(verbose: u8) {
    use tracing_subscriber::EnvFilter;
    // Without -v or RUST_LOG nothing is shown: building the subscriber would cost every run
    // (about a tenth of `args none`'s instructions) and print nothing.
    if verbose == 0 && std::env::var_os("RUST_LOG").is_none() {
        return;
    }
    let default = match verbose {
        0 => "off",
        1 => {
            "gpuctl=debug,gpuctl_core=debug,gpuctl_nvidia=debug,gpuctl_amd=debug,gpuctl_intel=debug"
        }
        _ => "trace",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .without_time()
        .try_init();
}
