//! `host.machine_id`: which machine a report is from, so that `fleet` can tell one host reported
//! twice from two hosts that share a name (cloned images keep theirs). machine-id(5) says the id
//! in `/etc/machine-id` "should be considered confidential" and that an application should use
//! it hashed with a keyed hash and a fixed, application-specific key; systemd's
//! `sd_id128_get_machine_app_specific(3)` defines that hash: HMAC-SHA256 keyed with the 16 bytes
//! of the machine id over the 16 bytes of the application id, its first 16 bytes made a version
//! 4 UUID. gpuctl's id is [`APP_ID`]; `systemd-id128 machine-id --app-specific=<APP_ID>` prints
//! the same value on the host itself.

use std::path::Path;

use gpuctl_core::plugin::Host;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// The file, read under `--root`.
pub const MACHINE_ID: &str = "/etc/machine-id";
/// gpuctl's application id (made once with `systemd-id128 new`).
pub const APP_ID: [u8; 16] = [
    0xaf, 0x32, 0x40, 0xda, 0x9c, 0xd8, 0x41, 0x7c, 0x81, 0xae, 0x92, 0xea, 0xe9, 0xf3, 0xae, 0x38,
];

/// The 16 bytes of a machine-id text: 32 hex digits and an optional line end (machine-id(5));
/// `None` for anything else, for `uninitialized` (set at first boot) and for all zeros (the
/// page: "This ID may not be all zeros").
pub fn parse(text: &str) -> Option<[u8; 16]> {
    let hex = text.strip_suffix('\n').unwrap_or(text).as_bytes();
    if hex.len() != 32 {
        return None;
    }
    let mut id = [0u8; 16];
    for (i, pair) in hex.chunks_exact(2).enumerate() {
        let digits = std::str::from_utf8(pair).ok()?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        id[i] = u8::from_str_radix(digits, 16).ok()?;
    }
    (id != [0; 16]).then_some(id)
}

/// systemd's application-specific id of `machine` for `app`, as 32 lower-case hex digits.
pub fn app_specific(machine: &[u8; 16], app: &[u8; 16]) -> String {
    // HMAC takes a key of any length; the error cannot happen, and no key would mean no id.
    let Ok(mut mac) = <Hmac<Sha256> as KeyInit>::new_from_slice(machine) else {
        return String::new();
    };
    mac.update(app);
    let digest = mac.finalize().into_bytes();
    let mut id = [0u8; 16];
    id.copy_from_slice(&digest[..16]);
    // A version 4, variant 1 UUID, as systemd's id128_make_v4_uuid() makes it.
    id[6] = (id[6] & 0x0f) | 0x40;
    id[8] = (id[8] & 0x3f) | 0x80;
    id.iter().map(|b| format!("{b:02x}")).collect()
}

/// The host's id for gpuctl, or `None` when the tree has no valid `/etc/machine-id`.
pub fn machine_id(host: &Host) -> Option<String> {
    let text = host.read_to_string(Path::new(MACHINE_ID), 4096).ok()?;
    parse(&text)
        .map(|id| app_specific(&id, &APP_ID))
        .filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn bytes(hex: &str) -> [u8; 16] {
        parse(hex).unwrap_or_default()
    }

    /// systemd's own vector (src/test/test-id128.c: `systemd-id128 -a
    /// f03daaeb1c334b43a732172944bf772e show 51df0b4bc3b04c9780e299b98ca373b8`).
    #[test]
    fn systemd_s_vector() {
        assert_eq!(
            app_specific(
                &bytes("51df0b4bc3b04c9780e299b98ca373b8"),
                &bytes("f03daaeb1c334b43a732172944bf772e")
            ),
            "1dee5954e75c4d6fb96cc6c04ca18a86"
        );
    }

    /// Where this machine has systemd-id128 and a machine id, both say the same of it.
    #[test]
    fn systemd_id128_agrees_on_this_machine() {
        let Ok(text) = std::fs::read_to_string(MACHINE_ID) else {
            return;
        };
        let Ok(out) = std::process::Command::new("systemd-id128")
            .arg("machine-id")
            .arg("--app-specific=af3240da9cd8417c81ae92eae9f3ae38")
            .output()
        else {
            eprintln!("no systemd-id128 here: only systemd's vector is checked");
            return;
        };
        let Some(id) = parse(&text) else { return };
        if out.status.success() {
            assert_eq!(
                String::from_utf8_lossy(&out.stdout).trim(),
                app_specific(&id, &APP_ID)
            );
        }
    }

    #[rstest]
    #[case("3d1219c7c4c5404aaa1f6d2a48adfda4\n", true)]
    #[case("3D1219C7C4C5404AAA1F6D2A48ADFDA4", true)]
    #[case("uninitialized\n", false)]
    #[case("00000000000000000000000000000000\n", false)]
    #[case("3d1219c7-c4c5-404a-aa1f-6d2a48adfda4\n", false)]
    #[case("3d1219c7c4c5404aaa1f6d2a48adfda\n", false)]
    #[case("+d1219c7c4c5404aaa1f6d2a48adfda4", false)]
    #[case("", false)]
    fn machine_id_texts(#[case] text: &str, #[case] valid: bool) {
        assert_eq!(parse(text).is_some(), valid);
    }
}
