//! Files the user names on the command line (`explain FILE`, `requirement --table FILE`): they
//! are input, not part of the host being looked at, so they are read from this machine as
//! given, never under `--root`.
//!
//! Only regular files are opened as files: `open()` on a FIFO blocks until a writer comes, and
//! a device or socket is no text file. The type is checked before opening, as the host model
//! does for spec files. `explain` also takes a pipe the user names (`explain <(podman ...)`,
//! a FIFO), opened without blocking ([`open_named`]); FIFOs found in spec directories stay
//! refused (the host model never opens them).

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

use rustix::fs::OFlags;

/// An input the user named on the command line.
#[derive(Debug)]
pub enum Named {
    /// A regular file: it can be read from its end.
    File(File),
    /// A pipe (`<(podman ...)`, a FIFO): read as a stream, like standard input.
    Pipe(File),
}

/// Opens `path` as [`open_regular`] does, and a FIFO too: opened with `O_NONBLOCK`, so the
/// open never waits for a writer, then switched back to blocking reads, so a writer that is
/// there is read to its end. A FIFO nobody has open for writing reads as empty at once (a
/// read on a pipe without writers is end-of-file), never a hang.
pub fn open_named(path: &Path) -> io::Result<Named> {
    let meta = std::fs::metadata(path)?;
    if meta.file_type().is_fifo() {
        let file = OpenOptions::new()
            .read(true)
            .custom_flags(OFlags::NONBLOCK.bits() as i32)
            .open(path)?;
        let flags = rustix::fs::fcntl_getfl(&file)?;
        rustix::fs::fcntl_setfl(&file, flags - OFlags::NONBLOCK)?;
        return Ok(Named::Pipe(file));
    }
    open_regular(path).map(Named::File)
}

/// Opens `path` for reading when it is a regular file (links followed); anything else (a FIFO,
/// a socket, a device, a directory) is refused with the words "it is a FIFO" and the like,
/// before any `open()` that could block.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {}, not a regular file", kind_of(&meta)),
        ));
    }
    File::open(path)
}

/// What a non-regular file is, in words: a FIFO is named at length, since here it is most often
/// a shell's `<(...)` rather than a file someone put there.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    if meta.file_type().is_fifo() {
        "a FIFO (named pipe)"
    } else {
        crate::check::evidence::kind_of(meta)
    }
}

/// The last `limit` bytes of an input, and how many bytes before them were dropped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tail {
    /// The bytes kept: the whole input, or its last `limit` bytes.
    pub bytes: Vec<u8>,
    /// How many leading bytes were not kept (0 when the input fit).
    pub dropped: u64,
}

/// Reads the last `limit` bytes of a regular file: it seeks, so a large file costs no more than
/// its tail.
pub fn read_file_tail(file: &mut File, limit: u64) -> io::Result<Tail> {
    let len = file.metadata()?.len();
    let start = len.saturating_sub(limit);
    file.seek(SeekFrom::Start(start))?;
    let mut bytes = Vec::new();
    // The file may grow while it is read; the take() keeps the bound.
    file.take(limit).read_to_end(&mut bytes)?;
    Ok(Tail {
        bytes,
        dropped: start,
    })
}

/// Reads a stream to its end and keeps its last `limit` bytes, in at most twice `limit` of
/// memory: the stream cannot seek, and the part that matters (podman's error) is at the end.
pub fn read_stream_tail(reader: &mut dyn Read, limit: u64) -> io::Result<Tail> {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let mut bytes: Vec<u8> = Vec::new();
    let mut dropped = 0u64;
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        bytes.extend_from_slice(&chunk[..n]);
        if bytes.len() >= limit.saturating_mul(2) {
            let cut = bytes.len() - limit;
            bytes.drain(..cut);
            dropped += cut as u64;
        }
    }
    if bytes.len() > limit {
        let cut = bytes.len() - limit;
        bytes.drain(..cut);
        dropped += cut as u64;
    }
    Ok(Tail { bytes, dropped })
}

/// The most characters of a file's text that an error message quotes.
pub const EXCERPT_CHARS: usize = 60;
/// The longest parser message passed on: past it the message is cut.
const MESSAGE_CHARS: usize = 400;

/// A parser's message about a user's file, with every quoted excerpt (`"..."` as serde writes
/// strings, `` `...` `` as it writes keys) cut to [`EXCERPT_CHARS`] characters and the whole cut
/// to a few hundred: pointed at `/etc/passwd`, YAML reads the file as one string, and the error
/// would otherwise repeat all of it.
pub fn shorten_quotes(message: &str) -> String {
    let mut out = String::new();
    let mut chars = message.chars();
    while let Some(open) = chars.next() {
        out.push(open);
        if open != '"' && open != '`' {
            continue;
        }
        // serde quotes strings with Debug escapes (\" inside), keys with bare backticks.
        let (mut kept, mut escaped) = (0usize, false);
        for c in chars.by_ref() {
            if c == open && !escaped {
                break;
            }
            escaped = open == '"' && !escaped && c == '\\';
            if kept < EXCERPT_CHARS {
                out.push(c);
            } else if kept == EXCERPT_CHARS {
                out.push('…');
            }
            kept += 1;
        }
        out.push(open);
    }
    if out.chars().count() > MESSAGE_CHARS {
        out = out.chars().take(MESSAGE_CHARS).collect();
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_keeps_its_tail() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i % 251) as u8).collect();
        for limit in [1u64, 7, 64, 999, 1000, 5000] {
            let tail = read_stream_tail(&mut data.as_slice(), limit).unwrap();
            let keep = data.len().min(limit as usize);
            assert_eq!(tail.bytes, data[data.len() - keep..], "limit {limit}");
            assert_eq!(tail.dropped, (data.len() - keep) as u64);
        }
    }

    #[test]
    fn a_file_keeps_its_tail_and_a_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stderr.txt");
        std::fs::write(&path, b"0123456789").unwrap();
        let mut f = open_regular(&path).unwrap();
        let tail = read_file_tail(&mut f, 4).unwrap();
        assert_eq!((tail.bytes.as_slice(), tail.dropped), (&b"6789"[..], 6));
        let e = open_regular(dir.path()).err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("it is a directory, not a regular file"));
    }

    #[test]
    fn quoted_excerpts_are_cut() {
        let long = "x".repeat(5000);
        let msg = format!("invalid type: string \"{long}\", expected a list at line 1 column 1");
        let got = shorten_quotes(&msg);
        assert_eq!(
            got,
            format!(
                "invalid type: string \"{}…\", expected a list at line 1 column 1",
                "x".repeat(EXCERPT_CHARS)
            )
        );
        assert_eq!(
            shorten_quotes("unknown field `firstt`, expected `first`"),
            "unknown field `firstt`, expected `first`"
        );
        let escaped = format!("string \"a\\\"{long}\" at line 2");
        assert!(shorten_quotes(&escaped).ends_with("…\" at line 2"));
        assert!(shorten_quotes(&"y".repeat(5000)).chars().count() <= MESSAGE_CHARS + 1);
    }
}
