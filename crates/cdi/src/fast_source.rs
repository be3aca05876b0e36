//! What the fast path's two readers (`fast_json.rs`, `fast_yaml.rs`) offer the schema walk
//! (`fast.rs`), and the byte tests they share.

/// A scalar as a fast reader hands it over, already resolved as yaml.v2 resolves it.
pub(super) enum Tok<'a> {
    /// A string, quoted or plain.
    Str(&'a str),
    /// A decimal integer without sign, leading zero, exponent or point.
    Int(u64),
    /// `true` or `false`, exactly.
    Bool(bool),
}

/// Where a reader is in one mapping or sequence.
#[derive(Default)]
pub(super) struct Frame {
    /// The column of a block collection's keys or dashes.
    pub(super) indent: usize,
    /// The first entry is still to be read (and starts where the reader is).
    pub(super) first: bool,
    /// An empty flow collection (`{}`, `[]`): no entries.
    pub(super) empty: bool,
}

/// What both fast readers offer the schema walk. `None` from any method means "not mine".
pub(super) trait Source<'a> {
    /// The document's top-level mapping.
    fn root(&mut self) -> Option<Frame>;
    /// A mapping at the value position.
    fn map_start(&mut self) -> Option<Frame>;
    /// The next key of the mapping, or `Some(None)` at its end; the reader then stands at the
    /// key's value.
    fn map_key(&mut self, frame: &mut Frame) -> Option<Option<&'a str>>;
    /// A sequence at the value position.
    fn seq_start(&mut self) -> Option<Frame>;
    /// Whether another item follows; the reader then stands at it.
    fn seq_next(&mut self, frame: &mut Frame) -> Option<bool>;
    /// A scalar at the value position.
    fn scalar(&mut self) -> Option<Tok<'a>>;
    /// Nothing but white space follows the top-level mapping.
    fn finish(&mut self) -> Option<()>;
}

/// `0` or a decimal without leading zero, up to 18 digits (so it fits any field's type test).
pub(super) fn decimal(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    let digits = !b.is_empty() && b.len() <= 18 && b.iter().all(u8::is_ascii_digit);
    if !digits || (b.len() > 1 && b[0] == b'0') {
        return None;
    }
    s.parse().ok()
}

const LOW: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Non-zero when a byte of `word` is `byte` (the classic zero-byte test, on `word ^ byte` in
/// every lane): the readers skip eight bytes at a time with it.
pub(super) fn has_byte(word: u64, byte: u8) -> u64 {
    let x = word ^ (LOW * u64::from(byte));
    x.wrapping_sub(LOW) & !x & HIGH
}

/// Non-zero when a byte of `word` is below `n` (at most 128).
pub(super) fn has_below(word: u64, n: u8) -> u64 {
    word.wrapping_sub(LOW * u64::from(n)) & !word & HIGH
}
