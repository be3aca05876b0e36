//! The tiers by which a vendor's GPUs reach a container.

use serde::Serialize;

/// How a vendor's GPUs reach the container.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// A valid CDI spec declares the vendor's kind: `--device <kind>=<name>`.
    Cdi,
    /// A runtime OCI hook injects the devices (NVIDIA's legacy hook): environment only.
    Hook,
    /// The vendor's documented raw device nodes: `--device /dev/...`.
    Raw,
}

impl Tier {
    /// The lowercase name used in JSON and text output.
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Cdi => "cdi",
            Tier::Hook => "hook",
            Tier::Raw => "raw",
        }
    }
}
