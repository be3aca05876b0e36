//! Replays every input a fuzzer crashed on (fuzz/regressions/<target>/*) and every seed kept
//! beside them, through the same function the fuzzer runs, so a fixed crash stays fixed.

use std::path::Path;

#[test]
fn every_kept_crash_input_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions");
    let mut replayed = 0;
    for (name, target) in gpuctl_fuzz_harness::TARGETS {
        let Ok(entries) = std::fs::read_dir(root.join(name)) else {
            continue;
        };
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            let data = std::fs::read(&path).unwrap_or_default();
            eprintln!("{name}: {}", path.display());
            target(&data);
            replayed += 1;
        }
    }
    eprintln!("replayed {replayed} inputs");
}

#[test]
fn every_target_takes_the_empty_input() {
    for (_, target) in gpuctl_fuzz_harness::TARGETS {
        target(b"");
    }
}
