//! The generation table's shape: inclusive device-id ranges mapped to requirements, searched in
//! order, first match wins (docs/requirement.md#device-id-lookup). The NVIDIA crate holds the
//! built-in rows.

use std::borrow::Cow;

use gpuctl_core::plugin::requirement::Requirement;
use thiserror::Error;

use super::{KernelModule, rex, unconstrained};

/// A row that cannot be part of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum RowError {
    /// The range is empty.
    #[error("first {first:04x} is above last {last:04x}")]
    FirstAboveLast {
        /// The first device id of the range.
        first: u16,
        /// The last device id of the range.
        last: u16,
    },
    /// The bounds leave no branch.
    #[error("min_branch {min} is above max_branch {max}: no driver branch can satisfy that")]
    MinAboveMax {
        /// The lower bound.
        min: u32,
        /// The upper bound.
        max: u32,
    },
}

/// One row: the device ids `first..=last` and the requirement they get.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenerationRow {
    first: u16,
    last: u16,
    generation: Option<Cow<'static, str>>,
    kernel_module: KernelModule,
    min_branch: Option<u32>,
    max_branch: Option<u32>,
    compute: Option<bool>,
}

impl GenerationRow {
    /// A row, or why it cannot be one. `generation` may be absent, as in the reference, where
    /// a row's label is optional.
    pub fn new(
        range: (u16, u16),
        generation: Option<Cow<'static, str>>,
        kernel_module: KernelModule,
        bounds: (Option<u32>, Option<u32>),
        compute: Option<bool>,
    ) -> Result<Self, RowError> {
        GenerationRow::check(range, bounds)?;
        let ((first, last), (min_branch, max_branch)) = (range, bounds);
        Ok(GenerationRow {
            first,
            last,
            generation,
            kernel_module,
            min_branch,
            max_branch,
            compute,
        })
    }

    /// What [`new`](Self::new) checks, as a `const fn`, so a built-in table can be checked
    /// while it is compiled.
    pub const fn check(
        (first, last): (u16, u16),
        bounds: (Option<u32>, Option<u32>),
    ) -> Result<(), RowError> {
        if first > last {
            return Err(RowError::FirstAboveLast { first, last });
        }
        if let (Some(min), Some(max)) = bounds
            && min > max
        {
            return Err(RowError::MinAboveMax { min, max });
        }
        Ok(())
    }

    /// The first device id of the range.
    pub fn first(&self) -> u16 {
        self.first
    }

    /// The last device id of the range (inclusive).
    pub fn last(&self) -> u16 {
        self.last
    }

    /// The generation label.
    pub fn generation(&self) -> Option<&str> {
        self.generation.as_deref()
    }

    /// The kernel module.
    pub fn kernel_module(&self) -> KernelModule {
        self.kernel_module
    }

    /// The oldest supported branch.
    pub fn min_branch(&self) -> Option<u32> {
        self.min_branch
    }

    /// The newest supported branch.
    pub fn max_branch(&self) -> Option<u32> {
        self.max_branch
    }

    /// The compute flag, when the row has an opinion.
    pub fn compute(&self) -> Option<bool> {
        self.compute
    }

    /// True when `id` lies in `first..=last`.
    pub fn covers(&self, id: u16) -> bool {
        (self.first..=self.last).contains(&id)
    }

    /// The requirement this row gives device `id`. The row's checks are the requirement's, so
    /// this cannot fail.
    pub fn requirement(&self, id: u16) -> Requirement {
        rex::checked(
            self.generation.as_deref(),
            self.kernel_module,
            (self.min_branch, self.max_branch),
            self.compute,
        )
        .with_device_id(id)
    }
}

/// An ordered list of rows; the first row covering an id decides its requirement.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GenerationTable {
    rows: Vec<GenerationRow>,
}

impl GenerationTable {
    /// A table of `rows`, in the order given.
    pub fn new(rows: Vec<GenerationRow>) -> Self {
        GenerationTable { rows }
    }

    /// The same table with `rows` in front, so they win over every row already there (what
    /// the reference's subclass does by prepending to `SUPER::generations`).
    #[must_use]
    pub fn with_prepended(self, mut rows: Vec<GenerationRow>) -> Self {
        rows.extend(self.rows);
        GenerationTable { rows }
    }

    /// The rows, in search order.
    pub fn rows(&self) -> &[GenerationRow] {
        &self.rows
    }

    /// The first row covering `id`, with its index.
    pub fn row_for(&self, id: u16) -> Option<(usize, &GenerationRow)> {
        first_row(&self.rows, id)
    }

    /// The requirement of device `id`: its first covering row's, or any module with no bounds
    /// and no compute opinion when no row covers it.
    pub fn lookup(&self, id: u16) -> Requirement {
        lookup_in(&self.rows, id)
    }

    /// The requirement for a device id as text, with the reference's leniency: four hex digits
    /// in any case, optionally followed by one newline. Anything else (`0x1db4`, ` 1db4`,
    /// `1db`, `1db40`, `zzzz`, empty, absent) gets a requirement with no device id, any module
    /// and no bounds.
    pub fn for_device_id(&self, id: Option<&str>) -> Requirement {
        match id.and_then(parse_lenient_device_id) {
            Some(id) => self.lookup(id),
            None => unconstrained(),
        }
    }
}

/// The first row of `rows` covering `id`, with its index.
pub fn first_row(rows: &[GenerationRow], id: u16) -> Option<(usize, &GenerationRow)> {
    rows.iter().enumerate().find(|(_, row)| row.covers(id))
}

/// [`GenerationTable::lookup`] over a plain slice (a `static` built-in table).
pub fn lookup_in(rows: &[GenerationRow], id: u16) -> Requirement {
    match first_row(rows, id) {
        Some((_, row)) => row.requirement(id),
        None => unconstrained().with_device_id(id),
    }
}

/// Four hex digits in any case, optionally followed by one `\n` (Perl's `$` matches before a
/// final newline, so the reference accepts `"1db4\n"`).
pub fn parse_lenient_device_id(text: &str) -> Option<u16> {
    let digits = text.strip_suffix('\n').unwrap_or(text);
    if digits.len() != 4 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u16::from_str_radix(digits, 16).ok()
}
