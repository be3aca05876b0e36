use super::*;
use rstest::rstest;

#[rstest]
#[case(0xc300, (195, 0))] // makedev(195, 0)
#[case(0xe280, (226, 128))]
#[case(0x1ff00, (511, 0))] // a dynamic major above 255
#[case(0x10_c300, (195, 256))] // a minor above 255 lives in bits 20 and up
fn numbers(#[case] rdev: u64, #[case] want: (u32, u32)) {
    assert_eq!(dev_numbers(rdev), want);
}

#[test]
fn manifest_entries_round_trip() {
    for m in [
        Made::Dir(PathBuf::from("/dev/dri")),
        Made::Node {
            path: PathBuf::from("/dev/nvidia0"),
            major: 195,
            minor: 0,
        },
        Made::Link {
            path: PathBuf::from("/dev/dri/by-path/pci-0000:03:00.0-render"),
            target: "../renderD130".to_string(),
        },
        Made::File {
            path: PathBuf::from("/etc/cdi/x.yaml"),
            content: "cdiVersion: \"0.5.0\"\n".to_string(),
        },
    ] {
        assert_eq!(Made::from_json(&m.to_json()), Some(m));
    }
}

#[test]
fn changes_are_undone_only_while_unchanged() {
    let base = std::env::temp_dir().join(format!("xtask-nodes-{}", std::process::id()));
    let manifest = base.with_extension("json");
    let _ = fs::remove_dir_all(&base);
    let mut c = HostChanges::new(&manifest).unwrap_or_else(|e| panic!("{e}"));
    let deep = base.join("a/b");
    assert_eq!(c.dir_all(&deep), Ok(()));
    assert_eq!(c.file(&deep.join("mine"), "x"), Ok(()));
    assert_eq!(c.link(&deep.join("l"), "mine"), Ok(()));
    assert!(
        c.file(&deep.join("mine"), "y").is_err(),
        "an existing path is refused"
    );
    // Someone else's file in our directory keeps the directory alive.
    assert_eq!(fs::write(base.join("a/theirs"), "t").ok(), Some(()));
    let problems = c.cleanup();
    // Both directories above the foreign file stay.
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("did not make"), "{problems:?}");
    assert!(!deep.exists());
    assert!(base.join("a/theirs").exists());
    let _ = fs::remove_dir_all(&base);
    let _ = fs::remove_file(&manifest);
}
