//! The engines the CLI and fleet drive, one module each: what `gpuctl doctor`, `explain`,
//! `args`, `run`, `detect` and `cdi` compute before the CLI prints it. A plug-in needs none of
//! this (it imports [`crate::plugin`]); each module here re-exports the public items of core's
//! private module of the same name, so core's files can move without breaking the CLI. What a
//! plug-in also uses (`Family`, `EmitterRule`, `Device`, `CdiNaming`, ...) is in the plug-in
//! facade only: one path per item.

pub use crate::backend::{cdi_generate_command, devices_noun, program_of};

/// What `containers.conf` says (doctor's podman checks).
pub mod containers_conf {
    pub use crate::check::containers_conf::*;
}

/// `podman image inspect`'s output, read.
pub mod image_inspect {
    pub use crate::check::image_inspect::*;
}

/// What podman on this host is and says.
pub mod podman {
    pub use crate::check::podman::*;
}

/// The invoking user (groups, rootless).
pub mod user {
    pub use crate::check::user::*;
}

/// `gpuctl cdi`: list, check and generate CDI specs.
pub mod cdi_tool {
    pub use crate::cdi_tool::{check, list};

    /// `gpuctl cdi generate VENDOR`: a CDI spec for a vendor whose nodes gpuctl knows as data.
    pub mod generate {
        pub use crate::cdi_tool::generate::{
            CdiDraft, DraftDevice, GenerateError, GeneratedSpec, render_node_draft,
        };
    }
}

/// `gpuctl detect`: what the registered vendors found on the host.
pub mod detect {
    pub use crate::detect::HostReport;
}

/// `gpuctl doctor`: host checks before a container starts.
pub mod doctor {
    pub use crate::doctor::*;
}

/// `gpuctl explain`: podman's stderr turned into a diagnosis and a remedy.
pub mod explain {
    pub use crate::explain::{Explanation, Quoted, emitter_rules, explain, not_claimed_because};
}

/// The failure catalogue `explain`, `doctor` and `run` share.
pub mod families {
    pub use crate::families::{
        CDI_HINT, CORE_FAMILIES, KEEP_GROUPS_HINT, STALE_CDI_HINT, catalogue, classify,
        classify_found, gpu_words, sign_words,
    };
}

/// The container image's own facts (its environment, its inspect output).
pub mod image {
    pub use crate::image::*;
}

/// Bounded reads of what a user hands in (files, standard input).
pub mod input {
    pub use crate::input::{
        EXCERPT_CHARS, Named, Tail, open_named, read_file_tail, read_stream_tail,
    };
}

/// `gpuctl run`'s command line and launch.
pub mod launch {
    pub use crate::launch::*;
}

/// Report formats and the safety of what is printed.
pub mod output {
    pub use crate::output::*;
}

/// How podman's stderr is read into emitter readings.
pub mod reading {
    pub use crate::reading::{Reading, core_rules, primary, read, read_found, words};
}

/// The plan as podman, Quadlet, compose or docker syntax.
pub mod render {
    pub use crate::render::*;
}

/// Which of `podman run`'s arguments is the image, so `gpuctl run` can check it.
pub mod run_args {
    pub use crate::run_args::*;
}

/// What `gpuctl run` knows of the host it launches on.
pub mod run_env {
    pub use crate::run_env::*;
}

/// The GPU selection language (`all`, `nvidia`, `amd:1`, ...).
pub mod selector {
    pub use crate::selector::*;
}
