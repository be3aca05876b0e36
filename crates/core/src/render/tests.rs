//! Renderers on hand-made plans: quoting that survives the consumer's reading, the merged
//! order, and what each format says it cannot express.

use super::*;
use crate::plan::Tier;
use crate::plan::{Need, VendorPlan};
use gpuctl_testkit::readback::{compose_to_podman, grouped, pairs, quadlet_to_podman};
use rstest::rstest;

fn env(name: &str, value: &str) -> Need {
    Need::Env {
        name: name.to_string(),
        value: value.to_string(),
    }
}

fn plan_of(vendor: &'static str, tier: Tier, needs: Vec<Need>) -> Plan {
    let mut v = VendorPlan::new(vendor, tier);
    for n in needs {
        v.add(n, None);
    }
    Plan::new(vec![v])
}

#[rstest]
#[case("/dev/kfd", "/dev/kfd")]
#[case("A=all", "A=all")]
#[case("A=50%", "A=50%%")]
#[case("A=$HOME", "A=$$HOME")]
#[case("A=two words", "\"A=two words\"")]
#[case("A=say \"hi\"", "\"A=say \\\"hi\\\"\"")]
#[case("A=back\\slash", "\"A=back\\\\slash\"")]
#[case("A=tab\there", "\"A=tab\\there\"")]
#[case("-optional", "\"-optional\"")]
#[case("", "\"\"")]
fn systemd_quoting(#[case] word: &str, #[case] want: &str) {
    assert_eq!(systemd_quote(word), want);
}

/// Values a vendor could hand over, read back by the Quadlet and compose readers unchanged.
#[test]
fn awkward_values_survive_quadlet_and_compose() {
    let needs = vec![
        Need::CdiDevice("acme.example/npu=0".to_string()),
        env("PLAIN", "all"),
        env("SPACED", "a b  c"),
        env("QUOTED", "say \"hi\" it's"),
        env("PERCENT", "100%"),
        env("DOLLAR", "$HOME and ${USER}"),
        env("SLASHED", "C:\\path"),
        Need::BindReadOnly("/dev/dri/by-path/plain-render".to_string()),
        Need::KeepGroups,
    ];
    let plan = plan_of("acme", Tier::Cdi, needs);
    let podman = pairs(&podman_args(&plan));
    let host = Host::system();
    let q = render(&plan, Format::Quadlet, &host, None).expect("quadlet");
    assert_eq!(
        quadlet_to_podman(&q.text).expect("quadlet"),
        podman,
        "{}",
        q.text
    );
    let c = render(&plan, Format::Compose, &host, None).expect("compose");
    assert_eq!(
        compose_to_podman(&c.text).expect("yaml"),
        grouped(&podman),
        "{}",
        c.text
    );
    assert!(c.text.contains("volumes:\n  - type: bind\n"), "{}", c.text);
}

/// Quadlet reads `GroupAdd=` from podman 5.1 (issue 19 item 6): told an older podman, the
/// renderer writes the key that podman's Quadlet reads, and says nothing; told none, it keeps
/// `GroupAdd=` and says which podman reads it.
#[rstest]
#[case(None, "GroupAdd=keep-groups", &["Quadlet reads GroupAdd= from podman 5.1 on"])]
#[case(Some("4.3.1"), "PodmanArgs=--group-add keep-groups", &["podman 4.3.1 has no Quadlet (podman 4.4 is the first)"])]
#[case(Some("4.4.0"), "PodmanArgs=--group-add keep-groups", &[])]
#[case(Some("4.9.3"), "PodmanArgs=--group-add keep-groups", &[])]
#[case(Some("5.0.3"), "PodmanArgs=--group-add keep-groups", &[])]
#[case(Some("5.1.0"), "GroupAdd=keep-groups", &[])]
#[case(Some("5.2.0"), "GroupAdd=keep-groups", &[])]
#[case(Some("6.0.0-dev"), "GroupAdd=keep-groups", &[])]
fn quadlet_follows_the_podman_release(
    #[case] podman: Option<&str>,
    #[case] line: &str,
    #[case] notes: &[&str],
) {
    let ceiling = podman.map(|v| PodmanCeiling::parse(v).expect("a version"));
    let plan = plan_of(
        "amd",
        Tier::Cdi,
        vec![Need::CdiDevice("amd.com/gpu=0".into()), Need::KeepGroups],
    );
    let q = render(&plan, Format::Quadlet, &Host::system(), ceiling.as_ref()).expect("quadlet");
    assert_eq!(
        q.text,
        format!("[Container]\nAddDevice=amd.com/gpu=0\n{line}\n")
    );
    let said: Vec<String> = q.notes.iter().map(ToString::to_string).collect();
    assert_eq!(said.len(), notes.len(), "{said:?}");
    for (s, n) in said.iter().zip(notes) {
        assert!(s.starts_with(n), "{s}");
    }
    assert_eq!(
        quadlet_to_podman(&q.text).expect("quadlet"),
        pairs(&podman_args(&plan)),
        "both keys give podman the same arguments"
    );
}

#[test]
fn a_repeated_need_is_rendered_once_in_every_format() {
    let mut a = VendorPlan::new("amd", Tier::Raw);
    a.add(Need::DeviceNode("/dev/kfd".into()), None)
        .add(Need::KeepGroups, None);
    let mut i = VendorPlan::new("intel", Tier::Raw);
    i.add(
        Need::DeviceNode("/dev/dri/renderD128".into()),
        Some("0000:00:02.0"),
    )
    .add(Need::KeepGroups, None);
    let plan = Plan::new(vec![a, i]);
    let host = Host::system();
    let q = render(&plan, Format::Quadlet, &host, None)
        .expect("quadlet")
        .text;
    assert_eq!(q.matches("GroupAdd=keep-groups").count(), 1, "{q}");
    let c = render(&plan, Format::Compose, &host, None)
        .expect("compose")
        .text;
    assert_eq!(c.matches("keep-groups").count(), 2, "{c}"); // the comment and the key
    assert_eq!(plan.items()[2].vendor, "intel");
    assert_eq!(plan.items()[2].device.as_deref(), Some("0000:00:02.0"));
}

#[test]
fn nothing_granted_is_empty_text_and_an_empty_json_list() {
    let host = Host::system();
    for f in Format::ALL {
        let r = render(&Plan::default(), f, &host, None).expect("empty");
        let want = if f == Format::Json { "[]\n" } else { "" };
        assert_eq!(r.text, want, "{}", f.as_str());
        assert!(r.notes.is_empty());
    }
}

#[test]
fn docker_says_what_it_cannot_do_like_podman() {
    let host = Host::system();
    let hook = plan_of(
        "nvidia",
        Tier::Hook,
        vec![env("NVIDIA_VISIBLE_DEVICES", "all")],
    );
    let r = render(&hook, Format::Docker, &host, None).expect("hook");
    assert_eq!(r.text, "-e NVIDIA_VISIBLE_DEVICES=all\n");
    assert_eq!(r.notes, [Note::DockerHook(hook.vendors()[0].hook_words())]);
    let cdi = plan_of(
        "amd",
        Tier::Cdi,
        vec![Need::CdiDevice("amd.com/gpu=all".into()), Need::KeepGroups],
    );
    let r = render(&cdi, Format::Docker, &host, None).expect("cdi");
    assert_eq!(r.text, "--device amd.com/gpu=all\n");
    assert_eq!(
        r.notes,
        [Note::DockerCdiGroups("amd".into()), Note::DockerCdi]
    );
    let missing = plan_of(
        "amd",
        Tier::Raw,
        vec![
            Need::DeviceNode("/dev/gpuctl-no-such-node".into()),
            Need::KeepGroups,
        ],
    );
    let r = render(&missing, Format::Docker, &host, None).expect("missing");
    assert_eq!(r.text, "--device /dev/gpuctl-no-such-node\n");
    assert!(
        matches!(&r.notes[..], [Note::DockerGroupUnknown(_)]),
        "{:?}",
        r.notes
    );
}

/// plain and docker are for `$(...)`: a node name the shell would split refuses them, and
/// Quadlet's `AddDevice=` (which would need it quoted), while json and compose carry it intact.
#[test]
fn only_the_shell_formats_and_quadlet_refuse_an_argument_the_shell_would_split() {
    let host = Host::system();
    let plan = plan_of(
        "acme",
        Tier::Raw,
        vec![Need::DeviceNode("/dev/acme0 --privileged".into())],
    );
    for f in Format::ALL {
        let refused = matches!(f, Format::Plain | Format::Docker | Format::Quadlet);
        assert_eq!(
            render(&plan, f, &host, None).is_err(),
            refused,
            "{}",
            f.as_str()
        );
    }
}

// The plain format's check.

#[rstest]
#[case("/dev/nvidia0", true)]
#[case(
    "type=bind,source=/dev/dri/by-path/pci-0000:03:00.0-render,destination=/dev/dri/by-path/pci-0000:03:00.0-render,ro=true",
    true
)]
#[case("nvidia.com/gpu=all", true)]
#[case("/dev/nvidia0 --privileged", false)]
#[case("/dev/nvidia0\n--privileged", false)]
#[case("/dev/nvidia0\t", false)]
#[case("/dev/nvidia\u{a0}0", false)]
#[case("/dev/nvidia\u{1c}0", false)]
#[case("/dev/nvidia\u{85}0", false)]
#[case("/dev/nvidia\u{2028}0", false)]
#[case("/dev/dri/renderD*", false)]
#[case("/dev/nvidia?", false)]
#[case("/dev/nvidia[0]", false)]
fn one_word(#[case] arg: &str, #[case] want: bool) {
    assert_eq!(is_one_word(arg), want);
}

#[test]
fn the_sentence_names_the_argument_on_one_line() {
    let args = [
        "--device".to_string(),
        "/dev/nvidia0\n--privileged".to_string(),
    ];
    let e = check::check_one_word(&args)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        e.starts_with("the argument \"/dev/nvidia0\\n--privileged\" holds"),
        "{e}"
    );
    assert!(!e.contains('\n'));
    assert_eq!(check::check_one_word(&args[..1]), Ok(()));
}

// What every format refuses (issue 16, items 2 and 12): a value its reader would split.

#[rstest]
#[case::mount_comma(Need::BindReadOnly("/dev/dri/by-path/pci-0000:03:00.0,Z-render".into()), Unsafe::MountSeparator)]
#[case::mount_newline(Need::BindReadOnly("/dev/dri/by-path/a\nb".into()), Unsafe::MountSeparator)]
#[case::device_colon(Need::DeviceNode("/dev/kfd:/dev/mem:rwm".into()), Unsafe::DeviceColon)]
#[case::env_name(env("A=B", "c"), Unsafe::KeyEquals)]
#[case::env_empty(env("", "c"), Unsafe::KeyEquals)]
fn every_format_refuses_what_the_engine_would_split(#[case] need: Need, #[case] why: Unsafe) {
    let plan = plan_of("acme", Tier::Raw, vec![need]);
    for f in Format::ALL {
        let e = render(&plan, f, &Host::system(), None).map(|r| r.text);
        assert_eq!(e.map_err(|e| e.why), Err(why), "{}", f.as_str());
    }
    assert_eq!(check_plan(&plan, Format::Json).map_err(|e| e.why), Err(why));
}

#[rstest]
#[case("/dev/dri/renderD128", true)]
#[case("nvidia.com/gpu=GPU-e008a3c1", true)]
#[case("intel.com/gpu=0000-08-00-0-0x56a5", true)]
#[case("nvidia.com/gpu=mig:0:1", true)]
#[case("-/dev/kfd", false)]
#[case("/dev/kfd\\x2d", false)]
#[case("\"/dev/kfd\"", false)]
#[case("/dev/a b", false)]
#[case("/dev/a;b", false)]
#[case("/dev/a\tb", false)]
#[case("", false)]
fn quadlet_add_device_takes_only_plain_words(#[case] value: &str, #[case] want: bool) {
    assert_eq!(is_quadlet_device(value), want);
    let plan = plan_of("acme", Tier::Cdi, vec![Need::CdiDevice(value.to_string())]);
    let q = render(&plan, Format::Quadlet, &Host::system(), None);
    assert_eq!(q.is_ok(), want, "{q:?}");
    if let Ok(q) = q {
        let back = quadlet_to_podman(&q.text).expect("quadlet");
        assert_eq!(back, [("--device".to_string(), value.to_string())]);
    }
}

#[rstest]
#[case(0o666, 44, GroupVerdict::Open)]
#[case(0o660, 44, GroupVerdict::Add(44))]
#[case(0o660, 0, GroupVerdict::RootGroup)]
#[case(0o600, 44, GroupVerdict::NoGroupOpens)]
#[case(0o644, 44, GroupVerdict::NoGroupOpens)]
#[case(0o664, 44, GroupVerdict::Add(44))]
#[case(0o646, 44, GroupVerdict::Open)]
#[case(0o604, 44, GroupVerdict::NoGroupOpens)]
#[case(0o640, 26, GroupVerdict::Add(26))]
fn docker_groups_only_where_they_open_the_node(
    #[case] mode: u32,
    #[case] gid: u32,
    #[case] want: GroupVerdict,
) {
    assert_eq!(group_verdict(mode, gid), want);
}

/// YAML's line breaks and what PyYAML refuses raw reach compose only escaped.
#[test]
fn compose_escapes_every_yaml_line_break() {
    let odd = "a\u{85}b\u{2028}privileged: true\u{2029}c\rd\u{7f}\u{9b}\u{feff}";
    let plan = plan_of(
        "acme",
        Tier::Raw,
        vec![
            env("ODD", odd),
            Need::BindReadOnly(format!(
                "/dev/dri/by-path/pci-0000:03:00.0-{}",
                odd.replace('\r', "")
            )),
        ],
    );
    let c = render(&plan, Format::Compose, &Host::system(), None).expect("compose");
    assert!(
        !c.text
            .contains(['\u{85}', '\u{2028}', '\u{2029}', '\r', '\u{7f}', '\u{9b}']),
        "{:?}",
        c.text
    );
    let back = compose_to_podman(&c.text).expect("yaml");
    assert!(
        back.contains(&("-e".to_string(), format!("ODD={odd}"))),
        "{back:?}"
    );
}

/// The hook tier's docker note is in the vendor's words: its runtime and the toolkit command that
/// sets it up, or no runtime name at all when the vendor gave none (issue 27 item 4).
#[rstest::rstest]
#[case(
    Some(crate::plan::HookRuntime { name: "habana", setup: "habana-container-runtime, registered in /etc/docker/daemon.json" }),
    "the Gaudi hook tier needs docker's Gaudi runtime ('--runtime habana', set up with 'habana-container-runtime, registered in /etc/docker/daemon.json'): the environment alone grants no accelerator"
)]
#[case(
    None,
    "the Gaudi hook tier needs the docker runtime of Gaudi's container toolkit ('--runtime NAME', as its documentation names it): the environment alone grants no accelerator"
)]
fn the_hook_note_names_the_vendor_s_runtime(
    #[case] runtime: Option<crate::plan::HookRuntime>,
    #[case] want: &str,
) {
    let host = Host::system();
    let mut block = crate::plan::VendorPlan::new("gaudi", Tier::Hook);
    block
        .add(
            Need::Env {
                name: "HABANA_VISIBLE_DEVICES".into(),
                value: "all".into(),
            },
            None,
        )
        .set_hook_words(crate::plan::HookWords {
            display: "Gaudi",
            noun: "accelerator",
            runtime,
        });
    let r = render(&Plan::new(vec![block]), Format::Docker, &host, None).expect("hook");
    assert_eq!(r.text, "-e HABANA_VISIBLE_DEVICES=all\n");
    let notes: Vec<String> = r.notes.iter().map(ToString::to_string).collect();
    assert_eq!(notes, [want]);
}
