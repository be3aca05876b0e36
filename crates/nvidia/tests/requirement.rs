//! NVIDIA's device-id and `--driver` parsing (its answers, through core's one requirement
//! report, are in requirement_report.rs).
#![allow(
    clippy::expect_used,
    reason = "a broken fixture should stop the test loudly"
)]

use rstest::rstest;

use gpuctl_core::plugin::requirement::{Known, Version};
use gpuctl_nvidia::model::KernelModule;
use gpuctl_nvidia::requirement::*;

#[rstest]
#[case("2901", Ok(0x2901))]
#[case("2E12", Ok(0x2e12))]
#[case("0x1db4", Ok(0x1db4))]
#[case("0X1DB4", Ok(0x1db4))]
#[case("10de:2901", Ok(0x2901))]
#[case("10DE:2901", Ok(0x2901))]
#[case("0000", Ok(0))]
#[case("ffff", Ok(0xffff))]
#[case("1db", Err(()))]
#[case("1db40", Err(()))]
#[case("zzzz", Err(()))]
#[case("2b85x", Err(()))]
#[case("", Err(()))]
#[case(" 1db4", Err(()))]
#[case("1db4\n", Err(()))]
#[case("0x", Err(()))]
#[case("0x1db", Err(()))]
#[case("1002:744c", Err(()))]
#[case("10de:", Err(()))]
#[case("10de2901", Err(()))]
#[case("0x10de:2901", Err(()))]
#[case("+2901", Err(()))]
#[case("２９０１", Err(()))]
#[case("é901", Err(()))]
fn device_ids(#[case] token: &str, #[case] want: Result<u16, ()>) {
    let got = parse_device_id(token);
    match want {
        Ok(id) => assert_eq!(got, Ok(id)),
        Err(()) => assert_eq!(
            got,
            Err(DeviceIdError::Malformed {
                token: token.to_string()
            })
        ),
    }
}

#[test]
fn device_id_messages_and_cap() {
    let err = parse_device_id("0x1db").expect_err("malformed");
    assert_eq!(
        err.to_string(),
        "'0x1db' is not an NVIDIA PCI device id; give four hex digits as XXXX, 0xXXXX or \
         10de:XXXX (e.g. 2901)"
    );
    assert_eq!(parse_device_ids(["1db4", "2901"]), Ok(vec![0x1db4, 0x2901]));
    assert_eq!(
        parse_device_ids(["1db4", "nope", "also bad"]),
        Err(DeviceIdError::Malformed {
            token: "nope".into()
        })
    );
    let many = std::iter::repeat_n("2901", MAX_DEVICE_IDS);
    assert_eq!(parse_device_ids(many).map(|v| v.len()), Ok(MAX_DEVICE_IDS));
    // Stops at the first id past the cap, however long the list goes on.
    let endless = std::iter::repeat("2901");
    let err = parse_device_ids(endless).expect_err("too many");
    assert_eq!(
        err,
        DeviceIdError::TooMany {
            limit: MAX_DEVICE_IDS
        }
    );
    assert_eq!(
        err.to_string(),
        "more than 65536 device ids were given, one per possible PCI device id"
    );
}

use KernelModule::{Open, Proprietary};

/// What is known of a spec's branch, in core's terms.
#[allow(non_snake_case, reason = "reads as the variant it makes")]
fn Exact(b: u32) -> Known {
    Known::Exact(Version::major(b))
}
#[allow(non_snake_case, reason = "reads as the variant it makes")]
fn AtLeast(b: u32) -> Known {
    Known::AtLeast(Version::major(b))
}
use Known::Unknown;

#[rstest]
#[case("open:580", Some(Open), Exact(580))]
#[case("open:580+", Some(Open), AtLeast(580))]
#[case("open", Some(Open), Unknown)]
#[case("OPEN", Some(Open), Unknown)]
#[case("proprietary:470", Some(Proprietary), Exact(470))]
#[case("Proprietary:0580+", Some(Proprietary), AtLeast(580))]
#[case("580", None, Exact(580))]
#[case("580+", None, AtLeast(580))]
fn driver_specs(#[case] spec: &str, #[case] module: Option<KernelModule>, #[case] branch: Known) {
    let parsed = parse_driver_spec(spec).expect("valid");
    assert_eq!(parsed.spec(), spec);
    assert_eq!((parsed.kernel_module(), parsed.branch()), (module, branch));
}

#[rstest]
#[case("", "it is empty")]
#[case("open:", "a driver branch is an integer like 580, not ''")]
#[case("open:+", "a driver branch is an integer like 580, not ''")]
#[case(
    "open:580.95.1.2",
    "'580.95.1.2' is not an NVIDIA driver release; give its numbers as the driver prints them, e.g. 570.124.06"
)]
#[case("open:580++", "a driver branch is an integer like 580, not '580+'")]
#[case(
    "580.x",
    "'580.x' is not an NVIDIA driver release; give its numbers as the driver prints them, e.g. 570.124.06"
)]
#[case("open:new", "a driver branch is an integer like 580, not 'new'")]
#[case(":580", "the kernel module must be open or proprietary, not ''")]
#[case(
    "nouveau:580",
    "the kernel module must be open or proprietary, not 'nouveau'"
)]
#[case(
    "nouveau",
    "the kernel module must be open or proprietary, not 'nouveau'"
)]
#[case("open:580:1", "a driver branch is an integer like 580, not '580:1'")]
#[case(
    "either:580",
    "a driver installs the open or the proprietary kernel module, not either"
)]
#[case(
    "open:99999999999",
    "driver branch 99999999999 is out of range: a branch is at most 4294967295"
)]
fn bad_driver_specs(#[case] spec: &str, #[case] reason: &str) {
    let err = parse_driver_spec(spec).expect_err("invalid");
    assert_eq!(
        err,
        DriverSpecError {
            spec: spec.to_string(),
            reason: reason.to_string()
        }
    );
}

#[rstest]
#[case("open:570.124.06", Some(KernelModule::Open), 570, "570.124.06")]
#[case(
    "proprietary:550.54.15",
    Some(KernelModule::Proprietary),
    550,
    "550.54.15"
)]
#[case("550.54.15", None, 550, "550.54.15")]
#[case("open:570", Some(KernelModule::Open), 570, "570")]
fn full_releases_are_specs_judged_by_their_branch_and_their_release(
    #[case] spec: &str,
    #[case] module: Option<KernelModule>,
    #[case] branch: u32,
    #[case] release: &str,
) {
    let parsed = parse_driver_spec(spec).expect("valid");
    assert_eq!(
        (parsed.kernel_module(), parsed.branch()),
        (module, Known::Exact(Version::major(branch)))
    );
    assert_eq!(parsed.release().map(|r| r.as_str()), Some(release));
}
