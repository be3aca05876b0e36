//! `specs-go`'s types (`config.go`, CDI library v1.1.0) as gpuctl decodes them: every field the
//! library has, so an unknown one is an error as in Go, with Go's nil-or-not distinctions where
//! the library looks at them (`schemata: []` is not nil, and needs cdiVersion 1.1.0).

use std::borrow::Cow;

use super::decode::De;
use crate::goyaml::NodeId;

type R = Result<(), String>;

pub(super) const SPEC_FIELDS: &[&str] = &[
    "cdiVersion",
    "kind",
    "annotations",
    "devices",
    "containerEdits",
];
pub(super) const DEVICE_FIELDS: &[&str] = &["name", "annotations", "containerEdits"];
pub(super) const EDITS_FIELDS: &[&str] = &[
    "env",
    "deviceNodes",
    "netDevices",
    "hooks",
    "mounts",
    "intelRdt",
    "additionalGids",
];
pub(super) const NODE_FIELDS: &[&str] = &[
    "path",
    "hostPath",
    "type",
    "major",
    "minor",
    "fileMode",
    "permissions",
    "uid",
    "gid",
];
pub(super) const MOUNT_FIELDS: &[&str] = &["hostPath", "containerPath", "options", "type"];
pub(super) const HOOK_FIELDS: &[&str] = &["hookName", "path", "args", "env", "timeout"];
pub(super) const RDT_FIELDS: &[&str] = &[
    "closID",
    "l3CacheSchema",
    "memBwSchema",
    "schemata",
    "enableMonitoring",
];
pub(super) const NET_FIELDS: &[&str] = &["hostInterfaceName", "name"];

/// `specs.Spec`.
#[derive(Debug, Default, PartialEq)]
pub(super) struct RawSpec<'a> {
    pub(super) cdi_version: Cow<'a, str>,
    pub(super) kind: Cow<'a, str>,
    /// How many annotations (only emptiness matters).
    pub(super) annotations: Option<usize>,
    pub(super) devices: Option<Vec<RawDevice<'a>>>,
    pub(super) container_edits: RawEdits<'a>,
}

/// `specs.Device`.
#[derive(Debug, Default, PartialEq)]
pub(super) struct RawDevice<'a> {
    pub(super) name: Cow<'a, str>,
    pub(super) annotations: Option<usize>,
    pub(super) container_edits: RawEdits<'a>,
}

/// `specs.ContainerEdits`. A `None` element of a pointer slice is a Go nil pointer, on which the
/// library's checks crash.
#[derive(Debug, Default, PartialEq)]
pub(super) struct RawEdits<'a> {
    pub(super) env: Option<Vec<Cow<'a, str>>>,
    pub(super) device_nodes: Option<Vec<Option<RawDeviceNode<'a>>>>,
    pub(super) net_devices: Option<Vec<Option<RawNetDevice<'a>>>>,
    pub(super) hooks: Option<Vec<Option<RawHook<'a>>>>,
    pub(super) mounts: Option<Vec<Option<RawMount<'a>>>>,
    pub(super) intel_rdt: Option<RawIntelRdt<'a>>,
    pub(super) additional_gids: Option<Vec<Option<u32>>>,
}

/// `specs.DeviceNode`.
#[derive(Debug, Default, PartialEq)]
pub(super) struct RawDeviceNode<'a> {
    pub(super) path: Cow<'a, str>,
    pub(super) host_path: Cow<'a, str>,
    pub(super) kind: Cow<'a, str>,
    pub(super) permissions: Cow<'a, str>,
    /// `fileMode`: Go's `*os.FileMode`, `None` for absent or `null`.
    pub(super) file_mode: Option<u32>,
    /// `gid`: Go's `*uint32`, `None` for absent or `null`.
    pub(super) gid: Option<u32>,
}

/// `specs.Mount`.
#[derive(Debug, Default, PartialEq)]
pub(super) struct RawMount<'a> {
    pub(super) host_path: Cow<'a, str>,
    pub(super) container_path: Cow<'a, str>,
    pub(super) kind: Cow<'a, str>,
}

/// `specs.Hook`.
#[derive(Debug, Default, PartialEq)]
pub(super) struct RawHook<'a> {
    pub(super) hook_name: Cow<'a, str>,
    pub(super) path: Cow<'a, str>,
    pub(super) env: Option<Vec<Cow<'a, str>>>,
}

/// `specs.IntelRdt`.
#[derive(Debug, Default, PartialEq)]
pub(super) struct RawIntelRdt<'a> {
    pub(super) clos_id: Cow<'a, str>,
    pub(super) schemata: Option<Vec<Cow<'a, str>>>,
    pub(super) enable_monitoring: bool,
}

/// `specs.LinuxNetDevice`.
#[derive(Debug, Default, PartialEq)]
pub(super) struct RawNetDevice<'a> {
    pub(super) host_interface_name: Cow<'a, str>,
    pub(super) name: Cow<'a, str>,
}

fn strings<'a>(de: &De<'_, 'a>, v: NodeId, out: &mut Option<Vec<Cow<'a, str>>>, f: &str) -> R {
    de.slice(v, out, f, |de, item, s| de.string(item, s, f))
}

fn throwaway<'a>(de: &De<'_, 'a>, v: NodeId, f: &str) -> R {
    de.string(v, &mut Cow::Borrowed(""), f)
}

impl<'a> RawSpec<'a> {
    pub(super) fn field(&mut self, de: &De<'_, 'a>, i: usize, v: NodeId) -> R {
        match i {
            0 => de.string(v, &mut self.cdi_version, "Spec.cdiVersion"),
            1 => de.string(v, &mut self.kind, "Spec.kind"),
            2 => de.string_map(v, &mut self.annotations, "Spec.annotations"),
            3 => de.slice(v, &mut self.devices, "Spec.devices", |de, item, d| {
                de.object_into(item, "Device", DEVICE_FIELDS, |de, i, v| d.field(de, i, v))
            }),
            _ => self.container_edits.decode(de, v),
        }
    }
}

impl<'a> RawDevice<'a> {
    fn field(&mut self, de: &De<'_, 'a>, i: usize, v: NodeId) -> R {
        match i {
            0 => de.string(v, &mut self.name, "Device.name"),
            1 => de.string_map(v, &mut self.annotations, "Device.annotations"),
            _ => self.container_edits.decode(de, v),
        }
    }
}

impl<'a> RawEdits<'a> {
    fn decode(&mut self, de: &De<'_, 'a>, v: NodeId) -> R {
        de.object_into(v, "ContainerEdits", EDITS_FIELDS, |de, i, v| {
            self.field(de, i, v)
        })
    }

    fn field(&mut self, de: &De<'_, 'a>, i: usize, v: NodeId) -> R {
        match i {
            0 => strings(de, v, &mut self.env, "ContainerEdits.env"),
            1 => de.slice(
                v,
                &mut self.device_nodes,
                "ContainerEdits.deviceNodes",
                |de, it, n| {
                    de.pointer_object(it, n, "DeviceNode", NODE_FIELDS, |n, de, i, v| {
                        n.field(de, i, v)
                    })
                },
            ),
            2 => de.slice(
                v,
                &mut self.net_devices,
                "ContainerEdits.netDevices",
                |de, it, n| {
                    de.pointer_object(it, n, "LinuxNetDevice", NET_FIELDS, |n, de, i, v| {
                        let out = if i == 0 {
                            &mut n.host_interface_name
                        } else {
                            &mut n.name
                        };
                        de.string(v, out, "LinuxNetDevice")
                    })
                },
            ),
            3 => de.slice(v, &mut self.hooks, "ContainerEdits.hooks", |de, it, h| {
                de.pointer_object(it, h, "Hook", HOOK_FIELDS, |h, de, i, v| h.field(de, i, v))
            }),
            4 => de.slice(v, &mut self.mounts, "ContainerEdits.mounts", |de, it, m| {
                de.pointer_object(it, m, "Mount", MOUNT_FIELDS, |m, de, i, v| {
                    m.field(de, i, v)
                })
            }),
            5 => de.pointer(v, &mut self.intel_rdt, |de, v, r| {
                de.object_into(v, "IntelRdt", RDT_FIELDS, |de, i, v| r.field(de, i, v))
            }),
            _ => de.slice(
                v,
                &mut self.additional_gids,
                "ContainerEdits.additionalGids",
                |de, it, g| de.u32(it, g, "ContainerEdits.additionalGids", true),
            ),
        }
    }
}

impl<'a> RawDeviceNode<'a> {
    fn field(&mut self, de: &De<'_, 'a>, i: usize, v: NodeId) -> R {
        let f = "DeviceNode";
        match i {
            0 => de.string(v, &mut self.path, f),
            1 => de.string(v, &mut self.host_path, f),
            2 => de.string(v, &mut self.kind, f),
            3 | 4 => de.i64(v, &mut None, "DeviceNode.major", true),
            // The library's wording names fileMode for all three.
            5 => de.u32(v, &mut self.file_mode, "DeviceNode.fileMode", false),
            8 => de.u32(v, &mut self.gid, "DeviceNode.fileMode", false),
            7 => de.u32(v, &mut None, "DeviceNode.fileMode", false),
            _ => de.string(v, &mut self.permissions, f),
        }
    }
}

impl<'a> RawMount<'a> {
    fn field(&mut self, de: &De<'_, 'a>, i: usize, v: NodeId) -> R {
        match i {
            0 => de.string(v, &mut self.host_path, "Mount.hostPath"),
            1 => de.string(v, &mut self.container_path, "Mount.containerPath"),
            2 => de.slice(v, &mut None, "Mount.options", |de, it, s| {
                de.string(it, s, "Mount.options")
            }),
            _ => de.string(v, &mut self.kind, "Mount.type"),
        }
    }
}

impl<'a> RawHook<'a> {
    fn field(&mut self, de: &De<'_, 'a>, i: usize, v: NodeId) -> R {
        match i {
            0 => de.string(v, &mut self.hook_name, "Hook.hookName"),
            1 => de.string(v, &mut self.path, "Hook.path"),
            2 => de.slice(v, &mut None, "Hook.args", |de, it, s| {
                de.string(it, s, "Hook.args")
            }),
            3 => strings(de, v, &mut self.env, "Hook.env"),
            _ => de.i64(v, &mut None, "Hook.timeout", false),
        }
    }
}

impl<'a> RawIntelRdt<'a> {
    fn field(&mut self, de: &De<'_, 'a>, i: usize, v: NodeId) -> R {
        match i {
            0 => de.string(v, &mut self.clos_id, "IntelRdt.closID"),
            1 | 2 => throwaway(de, v, "IntelRdt"),
            3 => strings(de, v, &mut self.schemata, "IntelRdt.schemata"),
            _ => de.bool(v, &mut self.enable_monitoring, "IntelRdt.enableMonitoring"),
        }
    }
}

/// Decodes the whole spec; `None` when the document is empty or `null` (the library's
/// "no Spec data"). Here rather than in `decode`, so that the decoder need not know the model.
pub(super) fn decode_spec<'a>(de: &De<'_, 'a>) -> Result<Option<RawSpec<'a>>, String> {
    let Some(root) = de.root() else {
        return Ok(None);
    };
    let mut spec = RawSpec::default();
    let found = de.object_found(root, "Spec", SPEC_FIELDS, |de, i, v| spec.field(de, i, v))?;
    Ok(found.then_some(spec))
}
