//! A driver stack, as far as it is known, and whether it satisfies a requirement.

use super::{Alternative, Asks, Constraint, LINUX_KERNEL, Requirement, Scope, Version};

/// What is known about a versioned component of a stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Known {
    /// Exactly this version.
    Exact(Version),
    /// The newest a repository carries, known to be at least this: it satisfies a lower bound
    /// up to that floor and never an upper bound, since a newer one can appear at any time.
    AtLeast(Version),
    /// Nothing: satisfies only a constraint without bounds.
    #[default]
    Unknown,
}

/// A driver stack: the chosen value of some components and what is known of the versions of
/// others, by component key. Whatever it does not name is unknown.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Stack {
    choices: Vec<(String, String)>,
    versions: Vec<(String, Known)>,
    settings: Vec<String>,
}

impl Stack {
    /// A stack that names nothing.
    pub fn new() -> Stack {
        Stack::default()
    }

    /// The same, with `key` set to `value` (a later setting of the same key wins).
    #[must_use]
    pub fn with_choice(mut self, key: &str, value: &str) -> Stack {
        self.choices.retain(|(k, _)| k != key);
        self.choices.push((key.to_string(), value.to_string()));
        self
    }

    /// The same, with what is known of `key`'s version (a later setting wins).
    #[must_use]
    pub fn with_version(mut self, key: &str, known: Known) -> Stack {
        self.versions.retain(|(k, _)| k != key);
        self.versions.push((key.to_string(), known));
        self
    }

    /// The same, with kernel parameter `setting` (`i915.force_probe=56c0`) set.
    #[must_use]
    pub fn with_setting(mut self, setting: &str) -> Stack {
        if !self.has_setting(setting) {
            self.settings.push(setting.to_string());
        }
        self
    }

    /// True when the stack sets kernel parameter `setting`, exactly as named; a stack that
    /// names none is a stock kernel.
    pub fn has_setting(&self, setting: &str) -> bool {
        self.settings.iter().any(|s| s == setting)
    }

    /// The value chosen for `key`, if named.
    pub fn choice(&self, key: &str) -> Option<&str> {
        self.choices
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// What is known of `key`'s version.
    pub fn version(&self, key: &str) -> Known {
        self.versions
            .iter()
            .find(|(k, _)| k == key)
            .map_or(Known::Unknown, |(_, v)| *v)
    }

    /// True when the stack names `key` at all.
    pub fn names(&self, key: &str) -> bool {
        self.choice(key).is_some() || self.versions.iter().any(|(k, _)| k == key)
    }
}

impl Requirement {
    /// True when `stack` can drive what this requirement is for.
    pub fn satisfied_by(&self, stack: &Stack) -> bool {
        self.why_not(stack).is_none()
    }

    /// Why `stack` does not satisfy this requirement (the first constraint it fails, in order),
    /// or `None` when it does.
    pub fn why_not(&self, stack: &Stack) -> Option<String> {
        if let Some(reason) = &self.unknown {
            return Some(reason.clone());
        }
        if let Some(m) = self.members.iter().find(|m| m.unknown.is_some()) {
            return Some(format!(
                "{}: {}",
                m.who(),
                m.unknown.as_deref().unwrap_or_default()
            ));
        }
        self.constraints.iter().find_map(|c| why_not(c, stack))
    }
}

/// Why `stack` fails one constraint.
pub(super) fn why_not(constraint: &Constraint, stack: &Stack) -> Option<String> {
    why_not_tri(constraint, stack).map(|(why, _)| why)
}

/// Why `stack` fails one constraint, and whether only because the stack leaves the component
/// unknown (not named, or a repository's newest whose version is not settled): the verdict's
/// unknown rather than its "does not fit" ([`Requirement::verdict`]).
pub(super) fn why_not_tri(constraint: &Constraint, stack: &Stack) -> Option<(String, bool)> {
    why_not_asked(constraint, stack, true)
}

/// As [`why_not_tri`], with what values ask ([`Asks`]) checked only when `asks` is true: the
/// verdict looks at the settings after every bound, so a kernel's floor is said before a
/// setting it may not need.
pub(super) fn why_not_asked(
    constraint: &Constraint,
    stack: &Stack,
    asks: bool,
) -> Option<(String, bool)> {
    match constraint {
        Constraint::Choice { allowed, .. } if allowed.is_empty() => None,
        Constraint::Choice { component, allowed } => {
            let with = |alt: &Alternative| {
                alt.needs
                    .iter()
                    .find_map(|n| why_not_asked(n, stack, asks))
                    .map(|(r, unknown)| {
                        (
                            format!("with the {} {}, {r}", alt.value, component.short),
                            unknown,
                        )
                    })
                    .or_else(|| {
                        alt.asks
                            .as_ref()
                            .filter(|_| asks)
                            .and_then(|a| asks_unmet(a, stack))
                    })
            };
            let given = stack.choice(component.key);
            if given.is_none() && component.scope == Scope::Device {
                // A device binds whichever of its drivers the rest of the stack (its kernel)
                // lets it, so a stack that names only the kernel is not short of a driver: it
                // fails only when no value's needs hold, for the first value's reason; when
                // one of them fails only for want of knowing, that one may still hold, so the
                // answer is unknown (three-valued or).
                let reasons = allowed
                    .iter()
                    .map(with)
                    .collect::<Option<Vec<(String, bool)>>>()?;
                return reasons
                    .iter()
                    .find(|(_, unknown)| *unknown)
                    .or(reasons.first())
                    .cloned();
            }
            let Some(alt) = given.and_then(|g| allowed.iter().find(|a| a.value == g)) else {
                let needed: Vec<&str> = allowed.iter().map(|a| a.value.as_ref()).collect();
                return Some((
                    format!(
                        "{} {}, the {} one is needed",
                        given.unwrap_or("unknown"),
                        component.short,
                        needed.join(" or ")
                    ),
                    given.is_none(),
                ));
            };
            with(alt)
        }
        Constraint::Range {
            component,
            min,
            max,
        } => {
            let (min, max) = (*min, *max);
            if min.is_none() && max.is_none() {
                return None;
            }
            let (noun, short) = (component.noun, component.short);
            match stack.version(component.key) {
                Known::Exact(v) => match (min, max) {
                    (Some(lo), _) if v < lo => {
                        Some((format!("{short} {v} is older than {lo}"), false))
                    }
                    (_, Some(hi)) if !v.within_max(&hi) => {
                        Some((format!("{short} {v} is newer than {hi}"), false))
                    }
                    _ => None,
                },
                Known::Unknown => Some((
                    match (min, max) {
                        // The lower bound is named even when there is an upper one too.
                        (Some(lo), _) => format!("{noun} not known, {lo} or newer is needed"),
                        (None, Some(hi)) => format!("{noun} not known, {hi} or older is needed"),
                        (None, None) => return None,
                    },
                    true,
                )),
                Known::AtLeast(floor) => match (min, max) {
                    // Past the ceiling already: no newer release comes back under it.
                    (_, Some(hi)) => Some((
                        format!(
                            "installs the newest {short} it carries, which can be newer than {hi}"
                        ),
                        floor.within_max(&hi),
                    )),
                    (Some(lo), None) if floor < lo => Some((
                        format!(
                            "installs the newest {short} it carries, known only to be {floor} or \
                             newer; {lo} is needed"
                        ),
                        true,
                    )),
                    _ => None,
                },
            }
        }
    }
}

/// Why `stack` lacks what a value asks ([`Asks`]), and whether only because its kernel release
/// is not known well enough to tell that it binds the device unasked.
fn asks_unmet(asks: &Asks, stack: &Stack) -> Option<(String, bool)> {
    if asks.settings.iter().all(|s| stack.has_setting(s)) {
        return None;
    }
    let Some(from) = asks.unasked_from else {
        return Some((asks.why.clone(), false));
    };
    let short = LINUX_KERNEL.short;
    match stack.version(LINUX_KERNEL.key) {
        Known::Exact(v) | Known::AtLeast(v) if v >= from => None,
        Known::Exact(_) => Some((asks.why.clone(), false)),
        // The newest a repository carries may be past `from`; nothing may be told of an
        // unnamed kernel.
        Known::AtLeast(v) => Some((
            format!(
                "installs the newest {short} it carries, known only to be {v} or newer; {}",
                asks.why
            ),
            true,
        )),
        Known::Unknown => Some((
            format!("{} not known; {}", LINUX_KERNEL.noun, asks.why),
            true,
        )),
    }
}
