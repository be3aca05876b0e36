//! The status tables read whole: every value of Level Zero's, the SYCL runtime's and the media runtime's enums is
//! read by its name as its own class (its emitter, operation and owner), and no value is in
//! two classes of one enum.

use std::collections::HashSet;

use gpuctl_core::commands::reading::{primary, read};
use gpuctl_core::plugin::EmitterRule;

use crate::explain_rules::RULES;

fn each_status_reads_as_its_class(classes: &[&EmitterRule]) {
    let rules: Vec<&EmitterRule> = RULES.iter().collect();
    let mut seen = HashSet::new();
    for class in classes {
        for s in class.statuses {
            assert!(seen.insert(s.name), "{} is in two classes", s.name);
            let text = format!("error: {}", s.name);
            let readings = read(&text, &rules, &["intel", "gpu"]);
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
fn level_zero_s_whole_enum_reads_by_name() {
    each_status_reads_as_its_class(crate::explain_rules_ze::CLASSES);
}

#[test]
fn the_sycl_runtime_s_whole_enums_read_by_name() {
    each_status_reads_as_its_class(crate::explain_rules_sycl::CLASSES);
}

#[test]
fn the_media_runtime_s_whole_enum_reads_by_name() {
    each_status_reads_as_its_class(crate::explain_rules_media::CLASSES);
}

#[test]
fn a_message_or_number_reads_only_on_its_emitter_s_line() {
    let rules: Vec<&EmitterRule> = RULES.iter().collect();
    let read_one = |t: &str| primary(&read(t, &rules, &["intel", "gpu"])).map(|r| r.emitter);
    assert_eq!(
        read_one("what():  Unknown ze_result_t value: 1879048193"),
        Some("level-zero")
    );
    assert_eq!(
        read_one("Native API failed. Native API returns: 20 (UR_RESULT_ERROR_DEVICE_LOST)"),
        Some("sycl")
    );
    assert_eq!(
        read_one("[h264_qsv @ 0x1] Error initializing the MFX video core: unsupported (-3)"),
        Some("qsv")
    );
    // The same numbers and words on a line of none of them are nobody's.
    assert_eq!(read_one("the job returned 1879048193"), None);
    assert_eq!(read_one("this codec is unsupported (-3)"), None);
}
