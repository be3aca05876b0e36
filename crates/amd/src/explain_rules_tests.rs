//! The status tables read whole: every value of HIP's, HSA's and the SMI libraries' enums is
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
            let readings = read(&text, &rules, &["amd", "gpu"]);
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
fn hip_s_whole_enum_reads_by_name() {
    each_status_reads_as_its_class(crate::explain_rules_hip::CLASSES);
}

#[test]
fn hsa_s_whole_enum_reads_by_name() {
    each_status_reads_as_its_class(crate::explain_rules_hsa::CLASSES);
}

#[test]
fn the_smi_libraries_whole_enums_read_by_name() {
    each_status_reads_as_its_class(crate::explain_rules_smi::CLASSES);
}

#[test]
fn a_message_or_number_reads_only_on_its_emitter_s_line() {
    let rules: Vec<&EmitterRule> = RULES.iter().collect();
    let read_one = |t: &str| primary(&read(t, &rules, &["amd", "gpu"])).map(|r| r.emitter);
    assert_eq!(
        read_one("RuntimeError: HIP error: invalid device ordinal"),
        Some("hip")
    );
    assert_eq!(read_one("hipGetDeviceCount returned 100"), Some("hip"));
    assert_eq!(read_one("Call returned 0x1008"), Some("hsa"));
    // The same words on a line of no HIP's or HSA's are nobody's.
    assert_eq!(read_one("invalid device ordinal"), None);
    assert_eq!(read_one("the request returned 100 rows"), None);
}
