//! What a scan noticed that did not stop it. Each kind carries its facts and no sentence: the
//! caller words it (gpuctl turns each into a finding with a stable code and a remedy).

use crate::source::ReadError;

/// Something a spec-directory scan noticed: a skipped spec, an unreadable directory, a conflict.
// Exhaustive on purpose: a caller that words warnings should fail to build when one is added.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Warning {
    /// A spec does not parse or validate, so it declares nothing; podman skips it too.
    SpecInvalid {
        /// The spec's path.
        path: String,
        /// Why, in the CDI library's words where it has them.
        reason: String,
    },
    /// A valid spec that the podman named by [`crate::podman::PodmanCeiling`] cannot load.
    SpecUnloadable {
        /// The spec's path.
        path: String,
        /// Why that podman cannot load it.
        reason: String,
    },
    /// A spec on which the CDI library crashes instead of refusing it.
    SpecCrashesLibrary {
        /// The spec's path.
        path: String,
        /// What in it crashes the library.
        reason: String,
    },
    /// A spec whose YAML aliases expand past the reader's bound; the library might still load
    /// it, building gigabytes of text on the way.
    SpecAliasExpansion {
        /// The spec's path.
        path: String,
        /// How far it expands.
        reason: String,
    },
    /// A spec directory exists but cannot be listed.
    DirUnreadable {
        /// The directory and the problem.
        error: ReadError,
    },
    /// A `.yml` file in a spec directory: CDI reads only `.json` and `.yaml`.
    SpecWrongExtension {
        /// The file's path.
        path: String,
    },
    /// A file named like a spec that is a FIFO, socket or device node: the CDI library would try
    /// to read it (and wait on a FIFO), so the scan does not.
    SpecNotRegular {
        /// The file's path.
        path: String,
        /// What it is, in a few words (`a FIFO`).
        kind: &'static str,
        /// True for a FIFO, which the library would wait on for a writer.
        fifo: bool,
    },
    /// A spec file that cannot be looked at.
    SpecUnreadable {
        /// The file and the problem.
        error: ReadError,
    },
    /// A spec directory with more files than the scan reads ([`crate::MAX_SPECS_PER_DIR`]).
    DirTooManySpecs {
        /// The directory's path.
        dir: String,
        /// How many spec files are read.
        limit: usize,
    },
    /// Two specs in one directory declare the same device, so neither is usable.
    DeviceConflict {
        /// The fully qualified device name (`nvidia.com/gpu=0`).
        device: String,
        /// The specs that declare it.
        paths: Vec<String>,
    },
}
