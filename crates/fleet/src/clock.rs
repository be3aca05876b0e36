//! Seconds since the epoch as RFC 3339 UTC (`2026-12-01T07:00:00Z`), the form NFD's
//! `# +expiry-time=` directive parses (Go's `time.RFC3339`).

/// `secs` as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn rfc3339(secs: u64) -> String {
    let days = secs / 86_400;
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`, for days on or after the epoch).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::rfc3339;
    use rstest::rstest;

    // Dates checked against `date -u -d @SECS +%Y-%m-%dT%H:%M:%SZ` (GNU coreutils).
    #[rstest]
    #[case(0, "1970-01-01T00:00:00Z")]
    #[case(951_782_400, "2000-02-29T00:00:00Z")]
    #[case(1_709_251_199, "2024-02-29T23:59:59Z")]
    #[case(1_796_108_400, "2026-12-01T07:00:00Z")]
    #[case(4_102_444_800, "2100-01-01T00:00:00Z")]
    fn formats(#[case] secs: u64, #[case] want: &str) {
        assert_eq!(rfc3339(secs), want);
    }
}
