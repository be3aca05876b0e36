//! The structured fallback's vocabulary from the registry: core's components, each vendor's
//! ([`crate::backend::Diagnostics::components`]), a plug-in's plain `gpu_words` read by their
//! shape, every CDI kind, and the libraries the vendors' rules call the image's. The vocabulary
//! of the discovered registry is built once; the fallback runs only when nothing else claimed
//! the text, so a text a family or rule claims never pays for it.

use std::sync::OnceLock;

use crate::backend::Registry;
use crate::families::catalogue::CORE_WORDS;
use crate::reading::Owner;
use crate::reading::fallback::{self, Fallback};
use crate::reading::fallback_scan::{Known, Vocabulary};
use crate::reading::vocabulary::{CORE_COMPONENTS, Component, ComponentKind as K};

/// The detail a fallback diagnosis adds: how it was read, so that it is not taken for a rule's.
pub(crate) const DETAIL: &str = "read from the line's structure (no family or emitter rule of gpuctl's has this wording): who printed it, the operation its verb names, and the stack's component it names";

/// What the fallback makes of `text`.
pub(crate) fn answer(text: &str, registry: &Registry) -> Fallback {
    static DISCOVERED: OnceLock<Vocabulary> = OnceLock::new();
    if std::ptr::eq(registry, Registry::discovered()) {
        fallback::read(text, DISCOVERED.get_or_init(|| vocabulary(registry)))
    } else {
        fallback::read(text, &vocabulary(registry))
    }
}

/// The vocabulary of `registry`'s vendors (a word listed twice keeps its first entry: a
/// vendor's own components before its plain words).
fn vocabulary(registry: &Registry) -> Vocabulary {
    let core = |c: &Component| Known {
        component: *c,
        vendor: None,
    };
    let mut known: Vec<Known> = CORE_COMPONENTS.iter().map(core).collect();
    known.extend(CORE_WORDS.iter().map(|w| by_shape(w, None, "")));
    for b in registry.backends() {
        let vendor = Some(b.display_name());
        let d = b.diagnostics();
        known.extend(d.components().iter().map(|c| Known {
            component: *c,
            vendor,
        }));
        known.extend(
            d.gpu_words()
                .iter()
                .map(|w| by_shape(w, vendor, b.vendor())),
        );
        for kind in b.cdi_kinds() {
            known.push(Known {
                component: Component::of(K::Resource, kind).prefix(),
                vendor,
            });
        }
        let image = d.emitter_rules().iter().filter(|r| r.owner == Owner::Image);
        for o in image.flat_map(|r| r.objects.iter()) {
            known.push(Known {
                component: Component::of(K::ImageLibrary, o).prefix(),
                vendor,
            });
        }
    }
    Vocabulary::new(known)
}

/// A plain word as a component, its kind told by its shape: a `/dev/` path is a node, `lib…` a
/// library, `a.b/c` a resource, `UPPER_CASE` a variable, `name-smi` a program; anything else
/// the vendor's runtime, printed by the vendor (`vendor`).
fn by_shape(word: &'static str, vendor: Option<&'static str>, name: &'static str) -> Known {
    let kind = if word.starts_with("/dev/") {
        K::DeviceNode
    } else if word.starts_with("lib") && !word.contains(' ') {
        K::DriverLibrary
    } else if !word.starts_with('/') && word.contains('/') && word.contains('.') {
        K::Resource
    } else if word.contains('_')
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    {
        K::Variable
    } else if word.contains('-') && word.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
        K::Program
    } else {
        K::Runtime
    };
    let component = Component::of(kind, word).prefix();
    let component = match kind {
        K::Program => component.emits(word, word),
        K::Runtime if !name.is_empty() => component.emits(name, vendor.unwrap_or(name)),
        _ => component,
    };
    Known { component, vendor }
}
