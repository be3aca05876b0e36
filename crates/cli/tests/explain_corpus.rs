//! The held-out corpus: 90 failure texts people posted in public threads (one file each in
//! explain_corpus/, its source URL and the expected family in its header), collected for issue 20
//! after the families of explain_real.rs were written, and issue 31's held-out sets A (091-130),
//! B (131-170), E (171-210, collected as 211-250; sets C and D were lost before they could be
//! folded in) and G (211-250; set F's texts were lost with its machine), each 30 GPU failures and 10 look-alikes, folded in after it was scored;
//! then round 7's sets H (251-280: 21 GPU failures, 9 look-alikes from GitHub issues) and I
//! (281-309: 20 and 9 from forum, blog and documentation pages), each scored once before it
//! was read, and set J (310-349: 30 and 10 from GitHub issues), scored before and after round 7
//! and read only then, and set K (350-389: 30 and 10 from GitHub issues), scored once before
//! round 8 and read only then, and set L (390-429: 30 and 10 from GitHub issues), scored before
//! round 8 and after K's fixes and read only then, and set M (430-469: 30 and 10 from GitHub
//! issues), scored before round 8 and after K's and L's fixes and read only then, and set N
//! (470-490: 15 and 6 from GitHub issues), scored before round 8 and after M's fixes, and set
//! O (491-520: 21 and 9 from GitHub issues), scored before round 8 and after N's fixes, and
//! round 9's sets P (521-553: 23 and 10, NVIDIA's stack and engines) and Q (554-575: 15 and 7,
//! AMD's, Intel's and graphics), each scored once before round 9 and read only then, and R
//! (576-615: 30 and 10) and S (616-650: 25 and 10), collected the same way and scored before
//! round 9 and after P's and Q's classes, and T (651-692: 32 and 10, NVIDIA's and engines'),
//! scored before round 9 and after R's and S's classes, and V (693-728: 26 and 10, NVIDIA's and
//! engines'), scored before round 9 and after T's classes, and U (729-755: 20 and 7, AMD's,
//! Intel's and graphics), scored before round 9 and after R's and S's classes, and W (756-790:
//! 25 and 10, AMD's and Intel's), scored before round 9 and after T's classes, folded in with
//! its misses as known misses still to be written. Every
//! third file of the first 90 (003, 006, ...) was set aside before any family was added for them
//! and scored as it was; the figures are in docs/explain.md. Every text must get its expectation
//! (a family, an emitter rule's emitter and operation, or none), except the known misses a header
//! marks with `known-miss:`, which are printed, and must drop the mark once explain gets them
//! right.

#![allow(clippy::panic)]

use std::path::PathBuf;

use gpuctl_core::plugin::Registry;
use gpuctl_core::plugin::UNRECOGNISED;
use gpuctl_core::{commands::explain::explain, plugin::STRUCTURED};

use gpuctl_amd as _;
use gpuctl_intel as _;
use gpuctl_nvidia as _;

/// One corpus file.
struct Case {
    id: u32,
    source: String,
    expect: String,
    /// With `expect: structured`: the emitter and operation the emitter rules must read.
    emitter: Option<String>,
    operation: Option<String>,
    /// Why explain misses this text now (`known-miss:`): the expectation is the thread's cause.
    known_miss: Option<String>,
    text: String,
}

fn corpus() -> Vec<Case> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/explain_corpus");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    names.sort();
    names
        .iter()
        .map(|p| {
            let raw = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let (head, text) = raw
                .split_once("\n---\n")
                .unwrap_or_else(|| panic!("{}: no --- line", p.display()));
            let optional = |k: &str| {
                head.lines()
                    .find_map(|l| l.strip_prefix(k))
                    .map(|v| v.trim().to_string())
            };
            let field = |k: &str| optional(k).unwrap_or_else(|| panic!("{}: no {k}", p.display()));
            let id = p
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse().ok())
                .unwrap_or_else(|| panic!("{}: not NNN.txt", p.display()));
            Case {
                id,
                source: field("source:"),
                expect: field("expect:"),
                emitter: optional("expect-emitter:"),
                operation: optional("expect-operation:"),
                known_miss: optional("known-miss:"),
                text: text.to_string(),
            }
        })
        .collect()
}

/// What explain answered: the family code, and the emitter and operation its typed fields name.
fn answer(text: &str) -> Option<(&'static str, Option<&'static str>, Option<&'static str>)> {
    explain(text, Registry::discovered(), None).map(|e| {
        (
            e.family.as_str(),
            e.emitter,
            e.operation.map(|o| o.as_str()),
        )
    })
}

/// Emitter names compared as the docs spell them, whatever the case or separator.
fn same(a: &str, b: &str) -> bool {
    let norm = |s: &str| s.to_ascii_lowercase().replace(['_', ' '], "-");
    norm(a) == norm(b)
}

/// Whether explain's answer is the one the file expects: its family; `none` (a look-alike or a
/// non-GPU text: unclaimed); or `structured`, an emitter-rule diagnosis naming the expected
/// emitter and operation.
fn right(c: &Case) -> bool {
    match (c.expect.as_str(), answer(&c.text)) {
        ("none", got) => got.is_none(),
        ("structured", Some((code, emitter, operation))) => {
            STRUCTURED == code
                && c.emitter
                    .as_deref()
                    .zip(emitter)
                    .is_some_and(|(a, b)| same(a, b))
                && c.operation
                    .as_deref()
                    .zip(operation)
                    .is_some_and(|(a, b)| same(a, b))
        }
        (want, Some((code, _, _))) => code == want,
        _ => false,
    }
}

/// The scores of a set of cases, as the corpus and a held-out set report them.
#[derive(Default)]
struct Score {
    right: usize,
    gpu: usize,
    flagged: usize,
    alarms: usize,
    other: usize,
    /// GPU texts diagnosed right by an emitter rule, and by a family.
    by_rule: usize,
    by_family: usize,
}

fn score(cases: &[&Case]) -> Score {
    let mut s = Score::default();
    for c in cases {
        let got = answer(&c.text);
        if c.expect == "none" {
            s.other += 1;
            s.alarms += usize::from(got.is_some());
            continue;
        }
        s.gpu += 1;
        s.flagged += usize::from(got.is_some());
        if right(c) && UNRECOGNISED != c.expect.as_str() {
            s.right += 1;
            if got.is_some_and(|(code, _, _)| STRUCTURED == code) {
                s.by_rule += 1;
            } else {
                s.by_family += 1;
            }
        }
    }
    s
}

#[test]
fn the_corpus_is_790_cited_texts_about_a_quarter_of_them_not_gpu() {
    let all = corpus();
    assert_eq!(all.len(), 790);
    for c in &all {
        // Two of set I's pages are served over plain http.
        let cited = c.source.starts_with("https://") || c.source.starts_with("http://");
        assert!(cited, "{:03}", c.id);
        assert!(!c.text.trim().is_empty(), "{:03}", c.id);
    }
    let other = all.iter().filter(|c| c.expect == "none").count();
    assert!((200..=215).contains(&other), "{other} non-GPU texts");
}

#[test]
fn every_text_gets_its_family_and_the_scores_are_printed() {
    let all = corpus();
    for (name, part) in [
        (
            "issue 20 held-out (every third of 001-090)",
            all.iter()
                .filter(|c| c.id <= 90 && c.id % 3 == 0)
                .collect::<Vec<_>>(),
        ),
        (
            "issue 31 held-out set A (091-130)",
            all.iter().filter(|c| (91..=130).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set B (131-170)",
            all.iter().filter(|c| (131..=170).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set E (171-210)",
            all.iter().filter(|c| (171..=210).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set G (211-250)",
            all.iter().filter(|c| (211..=250).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set H (251-280)",
            all.iter().filter(|c| (251..=280).contains(&c.id)).collect(),
        ),
        (
            "issue 31 set I, pages (281-309)",
            all.iter().filter(|c| (281..=309).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set J (310-349)",
            all.iter().filter(|c| (310..=349).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set K (350-389)",
            all.iter().filter(|c| (350..=389).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set L (390-429)",
            all.iter().filter(|c| (390..=429).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set M (430-469)",
            all.iter().filter(|c| (430..=469).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set N (470-490)",
            all.iter().filter(|c| (470..=490).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set O (491-520)",
            all.iter().filter(|c| (491..=520).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set P (521-553)",
            all.iter().filter(|c| (521..=553).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set Q (554-575)",
            all.iter().filter(|c| (554..=575).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set R (576-615)",
            all.iter().filter(|c| (576..=615).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set S (616-650)",
            all.iter().filter(|c| (616..=650).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set T (651-692)",
            all.iter().filter(|c| (651..=692).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set V (693-728)",
            all.iter().filter(|c| (693..=728).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set U (729-755)",
            all.iter().filter(|c| (729..=755).contains(&c.id)).collect(),
        ),
        (
            "issue 31 held-out set W (756-790)",
            all.iter().filter(|c| (756..=790).contains(&c.id)).collect(),
        ),
        ("all", all.iter().collect()),
    ] {
        let s = score(&part);
        println!(
            "{name}: diagnosed {}/{} GPU texts ({} by emitter rules, {} by families), answered {}/{}, false alarms {}/{}",
            s.right, s.gpu, s.by_rule, s.by_family, s.flagged, s.gpu, s.alarms, s.other
        );
    }
    let miss = |c: &Case| {
        format!(
            "{:03} ({}): want {} {:?} {:?}, got {:?}",
            c.id,
            c.source,
            c.expect,
            c.emitter,
            c.operation,
            answer(&c.text)
        )
    };
    let wrong: Vec<String> = all
        .iter()
        .filter(|c| c.known_miss.is_none() && !right(c))
        .map(miss)
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Known misses are printed, and one explain now gets right must lose its mark.
    for c in all.iter().filter(|c| c.known_miss.is_some()) {
        println!(
            "known miss {}: {}",
            miss(c),
            c.known_miss.as_deref().unwrap_or_default()
        );
    }
    let fixed: Vec<String> = all
        .iter()
        .filter(|c| c.known_miss.is_some() && right(c))
        .map(|c| format!("{:03}", c.id))
        .collect();
    assert!(
        fixed.is_empty(),
        "known misses now right (drop their known-miss line): {}",
        fixed.join(", ")
    );
}

/// `text` as a person's paste may carry it: every line quoted in Markdown, indented as a code
/// block, ended with CR LF, or wrapped at 80 columns (at the last space before the column, or
/// inside a word that has none, as a terminal does).
fn variants(text: &str) -> [(&'static str, String); 4] {
    let each = |f: &dyn Fn(&str) -> String| text.split('\n').map(f).collect::<Vec<_>>().join("\n");
    let wrap = |l: &str| {
        let mut out = Vec::new();
        let mut rest = l;
        while rest.len() > 80 {
            let cut = rest.floor_char_boundary(80);
            let at = rest[..cut].rfind(' ').filter(|&i| i > 0).unwrap_or(cut);
            out.push(rest[..at].to_string());
            rest = rest[at..].trim_start();
        }
        out.push(rest.to_string());
        out.join("\n")
    };
    [
        ("quoted", each(&|l| format!("> {l}"))),
        ("indented", each(&|l| format!("    {l}"))),
        ("crlf", text.replace('\n', "\r\n")),
        ("wrapped", each(&wrap)),
    ]
}

/// Whether explain's answer to `text` is the structured fallback's (a component and a failure
/// on one line, read by the line's structure) or `gpu-unrecognised`: both read lines as they
/// are, so a line a paste wrapped is two lines to them.
fn by_line_structure(text: &str) -> bool {
    explain(text, Registry::discovered(), None).is_some_and(|e| {
        UNRECOGNISED == e.family.as_str()
            || e.details
                .iter()
                .any(|d| d.starts_with("read from the line's structure"))
    })
}

/// Every text explain gets right as pasted it still gets right quoted, indented, with CR LF or
/// wrapped (an answer read by the line's structure, the fallback's, is not held to the
/// wrapping).
#[test]
fn a_paste_s_formatting_does_not_change_the_answer() {
    let mut broken = Vec::new();
    for c in corpus()
        .iter()
        .filter(|c| c.known_miss.is_none() && right(c))
    {
        let structural = by_line_structure(&c.text);
        for (how, text) in variants(&c.text) {
            if how == "wrapped" && structural {
                continue;
            }
            let moved = Case {
                id: c.id,
                source: c.source.clone(),
                expect: c.expect.clone(),
                emitter: c.emitter.clone(),
                operation: c.operation.clone(),
                known_miss: None,
                text,
            };
            if !right(&moved) {
                broken.push(format!("{:03} {how}: got {:?}", c.id, answer(&moved.text)));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}
