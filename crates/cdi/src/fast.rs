//! The fast path of spec reading: the shapes generators write (strict JSON as `nvidia-ctk
//! --format json` and AMD's generator write it; block YAML as `nvidia-ctk` and Intel's generator
//! write it) decoded straight from the text into [`RawSpec`], borrowing every string, with no
//! tree and no allocation per scalar.
//!
//! It decodes only what it is sure of. Anything else (a construct outside the subset, a key that
//! is not a field's exact name, a duplicate key, a value whose type is not the field's, `null`,
//! a plain scalar that yaml.v2 would read as a number or boolean where a string is wanted, any
//! error) makes it return `None`, and the full reader (`goyaml` then `decode`) decides, so every
//! error message and every unusual verdict comes from there. The differential tests
//! (`fast_tests.rs`, and the `cdi_fast` fuzz target) hold the two to the same [`RawSpec`].

use std::borrow::Cow;

use super::fast_json::Json;
use super::fast_source::{Frame, Source, Tok};
use super::fast_yaml::Yaml;
use super::model::{
    DEVICE_FIELDS, EDITS_FIELDS, HOOK_FIELDS, MOUNT_FIELDS, NET_FIELDS, NODE_FIELDS, RDT_FIELDS,
    RawDevice, RawDeviceNode, RawEdits, RawHook, RawIntelRdt, RawMount, RawNetDevice, RawSpec,
    SPEC_FIELDS,
};

/// Decodes `bytes` when they are in the subset; `None` otherwise.
pub(super) fn decode(bytes: &[u8]) -> Option<RawSpec<'_>> {
    let start = bytes.iter().position(|b| !matches!(b, b' ' | b'\n'))?;
    // Printable ASCII only: no byte-order mark, no encoding question, no control character
    // (yaml.v2 refuses most) and no tab or carriage return in YAML, where they change meaning.
    let json = bytes[start] == b'{';
    let printable =
        |b: u8| matches!(b, b' '..=b'~' | b'\n') || (json && matches!(b, b'\t' | b'\r'));
    // Whole blocks without an early exit, which the compiler turns into vector code.
    let block_ok = |c: &[u8]| c.iter().fold(true, |ok, &b| ok & printable(b));
    if !bytes.chunks(256).all(block_ok) {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    if json {
        spec(&mut Json::new(text))
    } else {
        spec(&mut Yaml::new(text)?)
    }
}

fn spec<'a, S: Source<'a>>(s: &mut S) -> Option<RawSpec<'a>> {
    let mut raw = RawSpec::default();
    let root = s.root()?;
    fields(s, root, SPEC_FIELDS, |s, i| {
        match i {
            0 => raw.cdi_version = string(s)?,
            1 => raw.kind = string(s)?,
            2 => raw.annotations = Some(string_map(s)?),
            3 => raw.devices = Some(seq(s, device)?),
            _ => edits(s, &mut raw.container_edits)?,
        }
        Some(())
    })?;
    s.finish()?;
    Some(raw)
}

/// Walks a mapping whose keys must be distinct field names, exactly as written in `names`.
fn fields<'a, S: Source<'a>>(
    s: &mut S,
    mut frame: Frame,
    names: &[&str],
    mut each: impl FnMut(&mut S, usize) -> Option<()>,
) -> Option<()> {
    let mut seen = 0u32;
    while let Some(key) = s.map_key(&mut frame)? {
        // Byte by byte: the keys are short, and a call to memcmp per field name costs more.
        let same =
            |n: &&str| n.len() == key.len() && n.bytes().zip(key.bytes()).all(|(a, b)| a == b);
        let i = names.iter().position(same)?;
        if seen & (1 << i) != 0 {
            return None;
        }
        seen |= 1 << i;
        each(s, i)?;
    }
    Some(())
}

fn object<'a, S: Source<'a>>(
    s: &mut S,
    names: &[&str],
    each: impl FnMut(&mut S, usize) -> Option<()>,
) -> Option<()> {
    let frame = s.map_start()?;
    fields(s, frame, names, each)
}

fn seq<'a, S: Source<'a>, T>(
    s: &mut S,
    mut item: impl FnMut(&mut S) -> Option<T>,
) -> Option<Vec<T>> {
    let mut frame = s.seq_start()?;
    // A block sequence has an item; room for a device's few nodes or hooks at once saves the
    // growth path (4 M instructions over a 4096-GPU spec; issue 26).
    let mut out = if frame.empty {
        Vec::new()
    } else {
        Vec::with_capacity(4)
    };
    while s.seq_next(&mut frame)? {
        out.push(item(s)?);
    }
    Some(out)
}

/// A sequence whose items are checked and dropped (`Hook.args`, `Mount.options`).
fn skip_seq<'a, S: Source<'a>>(
    s: &mut S,
    mut item: impl FnMut(&mut S) -> Option<()>,
) -> Option<()> {
    let mut frame = s.seq_start()?;
    while s.seq_next(&mut frame)? {
        item(s)?;
    }
    Some(())
}

fn skip_strings<'a, S: Source<'a>>(s: &mut S) -> Option<()> {
    skip_seq(s, |s| string(s).map(drop))
}

fn string<'a, S: Source<'a>>(s: &mut S) -> Option<Cow<'a, str>> {
    match s.scalar()? {
        Tok::Str(t) => Some(Cow::Borrowed(t)),
        _ => None,
    }
}

fn strings<'a, S: Source<'a>>(s: &mut S) -> Option<Vec<Cow<'a, str>>> {
    seq(s, string)
}

fn int<'a, S: Source<'a>>(s: &mut S, max: u64) -> Option<u64> {
    match s.scalar()? {
        Tok::Int(n) if n <= max => Some(n),
        _ => None,
    }
}

/// How many entries a `map[string]string` has; its keys must be distinct strings.
fn string_map<'a, S: Source<'a>>(s: &mut S) -> Option<usize> {
    /// Beyond this many entries the duplicate check would cost more than the full reader.
    const MOST: usize = 64;
    let mut frame = s.map_start()?;
    let mut keys: Vec<&str> = Vec::new();
    while let Some(key) = s.map_key(&mut frame)? {
        if keys.len() == MOST || keys.contains(&key) {
            return None;
        }
        keys.push(key);
        string(s)?;
    }
    Some(keys.len())
}

fn device<'a, S: Source<'a>>(s: &mut S) -> Option<RawDevice<'a>> {
    let mut d = RawDevice::default();
    object(s, DEVICE_FIELDS, |s, i| {
        match i {
            0 => d.name = string(s)?,
            1 => d.annotations = Some(string_map(s)?),
            _ => edits(s, &mut d.container_edits)?,
        }
        Some(())
    })?;
    Some(d)
}

fn edits<'a, S: Source<'a>>(s: &mut S, e: &mut RawEdits<'a>) -> Option<()> {
    object(s, EDITS_FIELDS, |s, i| {
        match i {
            0 => e.env = Some(strings(s)?),
            1 => e.device_nodes = Some(seq(s, |s| device_node(s).map(Some))?),
            2 => e.net_devices = Some(seq(s, |s| net_device(s).map(Some))?),
            3 => e.hooks = Some(seq(s, |s| hook(s).map(Some))?),
            4 => e.mounts = Some(seq(s, |s| mount(s).map(Some))?),
            5 => e.intel_rdt = Some(intel_rdt(s)?),
            _ => {
                let gid = |s: &mut S| int(s, u64::from(u32::MAX)).map(|n| u32::try_from(n).ok());
                e.additional_gids = Some(seq(s, gid)?);
            }
        }
        Some(())
    })
}

fn device_node<'a, S: Source<'a>>(s: &mut S) -> Option<RawDeviceNode<'a>> {
    let mut n = RawDeviceNode::default();
    object(s, NODE_FIELDS, |s, i| {
        match i {
            0 => n.path = string(s)?,
            1 => n.host_path = string(s)?,
            2 => n.kind = string(s)?,
            3 | 4 => drop(int(s, i64::MAX as u64)?),
            5 => n.file_mode = Some(u32::try_from(int(s, u64::from(u32::MAX))?).ok()?),
            8 => n.gid = Some(u32::try_from(int(s, u64::from(u32::MAX))?).ok()?),
            7 => drop(int(s, u64::from(u32::MAX))?),
            _ => n.permissions = string(s)?,
        }
        Some(())
    })?;
    Some(n)
}

fn net_device<'a, S: Source<'a>>(s: &mut S) -> Option<RawNetDevice<'a>> {
    let mut n = RawNetDevice::default();
    object(s, NET_FIELDS, |s, i| {
        let value = string(s)?;
        if i == 0 {
            n.host_interface_name = value;
        } else {
            n.name = value;
        }
        Some(())
    })?;
    Some(n)
}

fn hook<'a, S: Source<'a>>(s: &mut S) -> Option<RawHook<'a>> {
    let mut h = RawHook::default();
    object(s, HOOK_FIELDS, |s, i| {
        match i {
            0 => h.hook_name = string(s)?,
            1 => h.path = string(s)?,
            2 => skip_strings(s)?,
            3 => h.env = Some(strings(s)?),
            _ => drop(int(s, i64::MAX as u64)?),
        }
        Some(())
    })?;
    Some(h)
}

fn mount<'a, S: Source<'a>>(s: &mut S) -> Option<RawMount<'a>> {
    let mut m = RawMount::default();
    object(s, MOUNT_FIELDS, |s, i| {
        match i {
            0 => m.host_path = string(s)?,
            1 => m.container_path = string(s)?,
            2 => skip_strings(s)?,
            _ => m.kind = string(s)?,
        }
        Some(())
    })?;
    Some(m)
}

fn intel_rdt<'a, S: Source<'a>>(s: &mut S) -> Option<RawIntelRdt<'a>> {
    let mut r = RawIntelRdt::default();
    object(s, RDT_FIELDS, |s, i| {
        match i {
            0 => r.clos_id = string(s)?,
            1 | 2 => drop(string(s)?),
            3 => r.schemata = Some(strings(s)?),
            _ => match s.scalar()? {
                Tok::Bool(b) => r.enable_monitoring = b,
                _ => return None,
            },
        }
        Some(())
    })?;
    Some(r)
}
