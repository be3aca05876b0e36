//! Core's status tables read whole: every value of OpenCL's, Vulkan's, VA-API's and EGL's
//! enums is read by its name as its own class (emitter, operation, owner), no value is in two
//! classes of one enum, and a message or number reads only on its emitter's line.

use std::collections::HashSet;

use super::*;

fn each_status_reads_as_its_class(table: &[EmitterRule]) {
    let rules: Vec<&EmitterRule> = core_rules().collect();
    let mut seen = HashSet::new();
    for class in table {
        for s in class.statuses {
            assert!(seen.insert(s.name), "{} is in two classes", s.name);
            let text = format!("error: {}", s.name);
            let readings = read(&text, &rules, &["nvidia", "gpu"]);
            let r = primary(&readings).unwrap_or_else(|| panic!("{text} is not read"));
            assert_eq!(
                (r.emitter, r.operation, r.owner),
                (class.emitter, class.operation, class.owner),
                "{text}"
            );
            assert!(r.cause.contains(s.name), "{text}: {}", r.cause);
        }
    }
}

#[test]
fn opencl_s_whole_enum_reads_by_name() {
    each_status_reads_as_its_class(super::rules_opencl::RULES);
}

#[test]
fn vulkan_s_whole_enum_reads_by_name() {
    each_status_reads_as_its_class(super::rules_vulkan::RULES);
}

#[test]
fn va_api_s_whole_enum_reads_by_name() {
    each_status_reads_as_its_class(super::rules_vaapi::RULES);
}

#[test]
fn egl_s_whole_enum_reads_by_name() {
    each_status_reads_as_its_class(super::rules_egl::RULES);
}

#[test]
fn a_message_bare_name_or_number_reads_only_on_its_emitter_s_line() {
    let rules: Vec<&EmitterRule> = core_rules().collect();
    let one =
        |t: &str| primary(&read(t, &rules, &["nvidia", "gpu"])).map(|r| (r.emitter, r.operation));
    assert_eq!(
        one("pyopencl._cl.LogicError: clGetPlatformIDs failed: PLATFORM_NOT_FOUND_KHR"),
        Some(("opencl-icd", Operation::LoadLibrary))
    );
    assert_eq!(
        one("OpenCL error -1 in clGetDeviceIDs"),
        Some(("opencl", Operation::FindDevice))
    );
    assert_eq!(
        one("vkCreateInstance failed with ERROR_INCOMPATIBLE_DRIVER"),
        Some(("vulkan", Operation::LoadLibrary))
    );
    assert_eq!(
        one(
            "[hevc_vaapi @ 0x1] Failed to create decode configuration: 12 (the requested VAProfile is not supported)."
        ),
        Some(("vaapi", Operation::MatchVersion))
    );
    assert_eq!(
        one("eglInitialize: 0x3001"),
        Some(("egl", Operation::Initialise))
    );
    // The same bare name, message or number on a line of none of them is nobody's.
    assert_eq!(one("PLATFORM_NOT_FOUND_KHR"), None);
    assert_eq!(one("the requested VAProfile is not supported"), None);
    assert_eq!(one("exit code -9"), None);
}
