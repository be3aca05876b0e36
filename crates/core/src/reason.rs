//! Why `detect` finds a vendor usable on its tier, or not usable: typed where gpuctl's core
//! knows the facts (the CDI specs, a failed probe), the vendor's own words otherwise. JSON and
//! text print the sentence.

use serde::{Serialize, Serializer};

use crate::error::GpuError;
use crate::probe::Probe;

/// Why a vendor is usable on its tier, or not usable.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// Valid CDI specs declare the vendor's kind.
    Cdi {
        /// The CDI kind.
        kind: String,
        /// The specs that supply its devices, as (host path, `cdiVersion`), in scan order.
        specs: Vec<(String, Option<String>)>,
    },
    /// The vendor's probe failed, so it is reported unusable.
    ProbeFailed(GpuError),
    /// The vendor's own account: its hook or raw nodes, or what the host lacks.
    Vendor(String),
}

impl Reason {
    /// The CDI specs of `kind` that the probe found.
    pub fn cdi(probe: &Probe, kind: &str) -> Reason {
        Reason::Cdi {
            kind: kind.to_string(),
            specs: probe
                .cdi()
                .specs_for(kind)
                .iter()
                .map(|s| (s.path.clone(), s.cdi_version.clone()))
                .collect(),
        }
    }
}

impl From<String> for Reason {
    fn from(text: String) -> Self {
        Reason::Vendor(text)
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::Cdi { kind, specs } => {
                let files: Vec<String> = specs
                    .iter()
                    .map(|(path, version)| {
                        format!("{path} (cdiVersion {})", version.as_deref().unwrap_or("?"))
                    })
                    .collect();
                write!(f, "CDI: {} declares {kind}", files.join(" and "))
            }
            Reason::ProbeFailed(e) => write!(f, "{e}"),
            Reason::Vendor(text) => f.write_str(text),
        }
    }
}

impl Serialize for Reason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
