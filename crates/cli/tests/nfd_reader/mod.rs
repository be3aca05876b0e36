//! A feature-file reader written to Node Feature Discovery's rules for `features.d`
//! (kubernetes-sigs/node-feature-discovery, source/local/local.go and its testdata): a file
//! over 64 KiB is skipped whole, a name starting with `.` is ignored, `#` lines are comments,
//! `# +expiry-time=<RFC 3339>` applies to the lines after it (an expired line is dropped), a
//! line is `name[=value]` (no `=` is `true`), an unprefixed name gets
//! `feature.node.kubernetes.io/`, and a label that breaks the rules is dropped with a log line.
#![allow(dead_code)]

use std::collections::BTreeMap;

use gpuctl_fleet::label::{check_label_value, nfd_label_name};

/// What NFD would make of one file.
pub struct Read {
    /// The labels it keeps.
    pub labels: BTreeMap<String, String>,
    /// The lines it drops, with why.
    pub dropped: Vec<String>,
}

/// Seconds since the epoch of `YYYY-MM-DDTHH:MM:SSZ`.
fn parse_rfc3339(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    if b.len() != 20 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[19] != b'Z' {
        return None;
    }
    let n = |r: std::ops::Range<usize>| s.get(r)?.parse::<u64>().ok();
    let (y, m, d) = (n(0..4)?, n(5..7)?, n(8..10)?);
    let (hh, mm, ss) = (n(11..13)?, n(14..16)?, n(17..19)?);
    // Days from the civil date (Howard Hinnant's days_from_civil).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + hh * 3600 + mm * 60 + ss)
}

/// Reads `content` as the file `name` at time `now`.
pub fn read(name: &str, content: &[u8], now: u64) -> Read {
    let mut out = Read {
        labels: BTreeMap::new(),
        dropped: Vec::new(),
    };
    if name.starts_with('.') || content.len() > 64 * 1024 {
        return out;
    }
    let text = String::from_utf8_lossy(content);
    let mut expiry: Option<u64> = None;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix('#') {
            if let Some(t) = rest.trim_start().strip_prefix("+expiry-time=") {
                match parse_rfc3339(t.trim()) {
                    Some(e) => expiry = Some(e),
                    None => out.dropped.push(format!("unparsable expiry {t}")),
                }
            }
            continue;
        }
        if expiry.is_some_and(|e| e < now) {
            continue;
        }
        let (k, v) = line.split_once('=').unwrap_or((line, "true"));
        match nfd_label_name(k).and_then(|n| check_label_value(v).map(|()| n)) {
            Ok(n) => {
                out.labels.insert(n, v.to_string());
            }
            Err(why) => out.dropped.push(format!("{line}: {why}")),
        }
    }
    out
}

#[test]
fn reader_follows_nfds_rules() {
    let now = 1_796_108_400;
    let r = read(
        "f",
        b"# c\nplain\nx=1\n# +expiry-time=2026-12-01T06:00:00Z\nold=1\n# +expiry-time=2026-12-01T08:00:00Z\nnew=1\nbad-=x\nkubernetes.io/y=1\n",
        now,
    );
    assert_eq!(
        r.labels.keys().collect::<Vec<_>>(),
        [
            "feature.node.kubernetes.io/new",
            "feature.node.kubernetes.io/plain",
            "feature.node.kubernetes.io/x"
        ]
    );
    assert_eq!(r.dropped.len(), 2);
    assert!(read(".hidden", b"x=1\n", now).labels.is_empty());
    // Over 64 KiB, the whole file is skipped, not just its tail.
    let big = "a=1\n".repeat(64 * 1024 / 4 + 1);
    assert!(read("big", big.as_bytes(), now).labels.is_empty());
    assert_eq!(
        read("ok", &big.as_bytes()[..64 * 1024], now).labels.len(),
        1
    );
}
