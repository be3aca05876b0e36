//! gpuctl with the Ascend vendor linked in.

use gpuctl_example_ascend as _;

fn main() -> std::process::ExitCode {
    gpuctl_cli::main_entry(std::env::args_os())
}
