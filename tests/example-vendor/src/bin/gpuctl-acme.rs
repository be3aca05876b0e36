//! gpuctl with the Acme vendor linked in: how a third party ships gpuctl with its backend.

use gpuctl_example_vendor as _;

fn main() -> std::process::ExitCode {
    gpuctl_cli::main_entry(std::env::args_os())
}
