//! The one mapping from how a command ended to its exit code (README's table: 0 served, 1 the
//! host cannot serve or the answer is no, 2 invalid input), and each failure's sentence.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use gpuctl_cdi::ReadProblem;
use gpuctl_cdi::podman::PodmanVersionError;
use gpuctl_cli::{CliError, Outcome, exit_code};
use gpuctl_core::commands::render::{Unsafe, UnsafeArgument};
use gpuctl_core::commands::selector::SelectorError;
use gpuctl_core::plugin::GpuError;
use gpuctl_core::plugin::HostError;
use gpuctl_core::plugin::requirement::RequirementInputError;
use rstest::rstest;

#[rstest]
#[case::served(Outcome::Served, 0)]
#[case::help(Outcome::Help, 0)]
#[case::not_satisfied(Outcome::NotSatisfied, 1)]
#[case::nothing_found(Outcome::NothingFound, 1)]
#[case::engine_passed_on(Outcome::Engine(125), 125)]
fn outcomes(#[case] outcome: Outcome, #[case] code: u8) {
    assert_eq!(exit_code(&Ok(outcome)), code);
}

#[rstest]
#[case::flags(
    CliError::Flags,
    2,
    "the command line is not valid; see 'gpuctl --help'"
)]
#[case::root(
    CliError::Root(HostError { path: PathBuf::from("/nowhere"), problem: ReadProblem::NotFound }),
    2,
    "the root directory /nowhere does not exist; pass --root (or GPUCTL_ROOT) an existing directory"
)]
#[case::podman_version(
    CliError::PodmanVersion(PodmanVersionError::BadMinor { text: "4.x".into() }),
    2,
    "podman version '4.x' is not a version like 4.3.1"
)]
#[case::selector(
    CliError::Selector(SelectorError::BadIndex { token: "amd:x".into(), vendor: "amd".into() }),
    2,
    "bad device index in 'amd:x'; expected 'amd' or 'amd:<non-negative integer>', or on a CDI tier 'amd:<device name>' (letters, digits, '_', '.', ':', '-', starting and ending with a letter or digit)"
)]
#[case::unserved(
    CliError::Unserved(GpuError::NoUsableGpu { missing: vec!["no vendor CDI spec".into()], noun: "GPU".into() }),
    1,
    "the selection is 'all' but no usable GPU support was detected on this host (no vendor CDI spec); run 'gpuctl detect' to see what each vendor lacks"
)]
#[case::device_name_off_cdi(
    CliError::Unserved(GpuError::DeviceNameOffCdi { vendor: "amd".into(), names: vec!["x".into()], tier: "raw", kind: "amd.com/gpu".into() }),
    2,
    "bad device index in 'amd:x'; expected 'amd' or 'amd:<non-negative integer>' — this host serves amd on the raw tier, where devices are numbered (see 'gpuctl detect'); a device name selects a device only where a valid CDI spec declares amd.com/gpu"
)]
#[case::unsafe_plain(
    CliError::UnsafePlain(UnsafeArgument { argument: "/dev/nvidia0 --privileged".into(), why: Unsafe::ShellWord }),
    1,
    "the argument \"/dev/nvidia0 --privileged\" holds white space, a control character or a shell wildcard, so 'podman run $(gpuctl args ...)' would split or expand it into other arguments — nothing is printed; check the host's /dev, /sys and CDI specs for that name, or use '--format json'"
)]
#[case::device_id(
    CliError::Requirement(RequirementInputError::TooManyIds { limit: 65536 }),
    2,
    "more than 65536 device ids were given, one per possible PCI device id; pass one id per GPU"
)]
#[case::driver_spec(
    CliError::Requirement(RequirementInputError::BadDriverSpec {
        reason: "'closed' is not a driver spec: the kernel module must be open or proprietary, not 'closed'".into(),
        known: "rocm:VERSION".into(),
        forms: ", or open:580 (exactly 580)".into(),
    }),
    2,
    "--driver 'closed' is not a driver spec: the kernel module must be open or proprietary, not 'closed'; write rocm:VERSION for the other vendors' stacks, or open:580 (exactly 580)"
)]
#[case::bad_pci_id(
    CliError::Requirement(RequirementInputError::BadPciId { token: "1002:zz".into() }),
    2,
    "'1002:zz' is not a PCI device id; give VVVV:DDDD, four hex digits each (e.g. 1002:74a1), or an NVIDIA id as DDDD"
)]
#[case::nvidia_spec_without_gpu(
    CliError::Requirement(RequirementInputError::SpecWithoutGpu {
        spec: "open:580".into(),
        vendors: vec!["NVIDIA".into()],
        whole_stack: true,
        example: "2901".into(),
    }),
    2,
    "--driver 'open:580' is for NVIDIA GPUs, and none is in the request; name one (e.g. 2901) or drop the spec"
)]
#[case::site_table(
    CliError::Requirement(RequirementInputError::Table(
        "site table /etc/site.txt is neither .json nor .yaml/.yml, so its format is not known; name it .json, .yaml or .yml".into()
    )),
    2,
    "site table /etc/site.txt is neither .json nor .yaml/.yml, so its format is not known; name it .json, .yaml or .yml"
)]
#[case::explain_file(
    CliError::ExplainInput { file: Some("/tmp/err".into()), reason: "No such file or directory (os error 2)".into() },
    2,
    "cannot read /tmp/err (No such file or directory (os error 2)); pass a file holding podman's stderr, or pipe it on standard input"
)]
#[case::explain_stdin(
    CliError::ExplainInput { file: None, reason: "Is a directory (os error 21)".into() },
    2,
    "cannot read standard input (Is a directory (os error 21)); pass podman's stderr as a FILE instead"
)]
#[case::encode(
    CliError::Encode { what: "report", reason: "key must be a string".into() },
    1,
    "cannot encode the report as JSON (key must be a string)"
)]
#[case::write(
    CliError::Write { reason: "No space left on device (os error 28)".into() },
    1,
    "cannot write the result to stdout (No space left on device (os error 28))"
)]
fn failures(#[case] error: CliError, #[case] code: u8, #[case] sentence: &str) {
    assert_eq!(error.to_string(), sentence);
    assert_eq!(exit_code(&Err(error)), code);
}
