//! The on-disk shape of a CDI spec, field for field as the CDI library's Go structs, so that
//! serde's strict decoding fails where the library's does. Validation lives in `spec`, `edits`
//! and `version`; this module only names the fields, so those three need not import each other.

use std::collections::BTreeMap;

use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct RawSpec {
    pub(super) cdi_version: String,
    pub(super) kind: String,
    #[serde(default)]
    pub(super) annotations: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub(super) devices: Option<Vec<RawDevice>>,
    #[serde(default)]
    pub(super) container_edits: Option<RawEdits>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct RawDevice {
    #[serde(default)]
    pub(super) name: String,
    #[serde(default)]
    pub(super) annotations: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub(super) container_edits: Option<RawEdits>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct RawEdits {
    #[serde(default)]
    pub(super) env: Option<Vec<String>>,
    #[serde(default)]
    pub(super) device_nodes: Option<Vec<RawDeviceNode>>,
    #[serde(default)]
    pub(super) hooks: Option<Vec<RawHook>>,
    #[serde(default)]
    pub(super) mounts: Option<Vec<RawMount>>,
    #[serde(default)]
    pub(super) intel_rdt: Option<RawIntelRdt>,
    #[serde(default, rename = "additionalGids")]
    pub(super) additional_gids: Option<Vec<u32>>,
    #[serde(default)]
    pub(super) net_devices: Option<Vec<RawNetDevice>>,
}

// Fields gpuctl never reads are still typed, so a value of the wrong type fails as in Go.
#[allow(dead_code)]
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct RawDeviceNode {
    #[serde(default)]
    pub(super) path: String,
    #[serde(default)]
    pub(super) host_path: Option<String>,
    #[serde(default, rename = "type")]
    pub(super) kind: Option<String>,
    #[serde(default)]
    pub(super) major: Option<i64>,
    #[serde(default)]
    pub(super) minor: Option<i64>,
    #[serde(default)]
    pub(super) file_mode: Option<u32>,
    #[serde(default)]
    pub(super) permissions: Option<String>,
    #[serde(default)]
    pub(super) uid: Option<u32>,
    #[serde(default)]
    pub(super) gid: Option<u32>,
}

// Fields gpuctl never reads are still typed, so a value of the wrong type fails as in Go.
#[allow(dead_code)]
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct RawMount {
    #[serde(default)]
    pub(super) host_path: String,
    #[serde(default)]
    pub(super) container_path: String,
    #[serde(default, rename = "type")]
    pub(super) kind: Option<String>,
    #[serde(default)]
    pub(super) options: Option<Vec<String>>,
}

// Fields gpuctl never reads are still typed, so a value of the wrong type fails as in Go.
#[allow(dead_code)]
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct RawHook {
    #[serde(default)]
    pub(super) hook_name: String,
    #[serde(default)]
    pub(super) path: String,
    #[serde(default)]
    pub(super) args: Option<Vec<String>>,
    #[serde(default)]
    pub(super) env: Option<Vec<String>>,
    #[serde(default)]
    pub(super) timeout: Option<i64>,
}

// Fields gpuctl never reads are still typed, so a value of the wrong type fails as in Go.
#[allow(dead_code)]
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawIntelRdt {
    #[serde(default, rename = "closID")]
    pub(super) clos_id: Option<String>,
    #[serde(default, rename = "l3CacheSchema")]
    pub(super) l3_cache_schema: Option<String>,
    #[serde(default, rename = "memBwSchema")]
    pub(super) mem_bw_schema: Option<String>,
    #[serde(default)]
    pub(super) schemata: Option<Vec<String>>,
    #[serde(default, rename = "enableMonitoring")]
    pub(super) enable_monitoring: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct RawNetDevice {
    #[serde(default)]
    pub(super) host_interface_name: String,
    #[serde(default)]
    pub(super) name: String,
}

impl RawEdits {
    /// True when the edits change nothing (the library rejects a device with empty edits).
    pub(super) fn is_empty(&self) -> bool {
        fn none<T>(v: &Option<Vec<T>>) -> bool {
            v.as_ref().is_none_or(Vec::is_empty)
        }
        none(&self.env)
            && none(&self.device_nodes)
            && none(&self.hooks)
            && none(&self.mounts)
            && self.intel_rdt.is_none()
            && none(&self.additional_gids)
            && none(&self.net_devices)
    }
}
