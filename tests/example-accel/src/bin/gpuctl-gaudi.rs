//! gpuctl with the Gaudi vendor linked in.

use gpuctl_example_accel as _;

fn main() -> std::process::ExitCode {
    gpuctl_cli::main_entry(std::env::args_os())
}
