//! The `gpuctl` binary: all of it lives in the `gpuctl_cli` library so tests and third-party
//! builds (with extra vendor crates linked) can run the same entry point.

fn main() -> std::process::ExitCode {
    gpuctl_cli::main_entry(std::env::args_os())
}
