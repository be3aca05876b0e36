//! Issue 31, round 8 (set K's misses as classes). Each rule's wording is the emitter's own,
//! named beside it (docs/explain.md "Round 8").
//!
//! - A Kubernetes device plug-in's file watcher on the kubelet's socket directory
//!   (`/var/lib/kubelet/device-plugins/`, fsnotify's inotify_init1): NVIDIA's k8s-device-plugin
//!   logs "failed to create FS watcher for %s: %v", Intel's device plug-ins "Failed to create
//!   watcher for %s" after "Failed to serve %s: too many open files". EMFILE there is the
//!   node's inotify instance limit (fs.inotify.max_user_instances, 128 by default), not the
//!   process's open files: without the watcher the plug-in does not serve or re-register its
//!   GPU resource, so pods asking for it stay Pending (intel/intel-device-plugins-for-kubernetes
//!   #2075: raising the sysctl fixed it).
//! - FFmpeg's VA-API encoder (libavcodec/vaapi_encode.c): "Driver does not support %s RC mode
//!   (supported modes: %s)". A driver that offers CQP only for H.264/HEVC is, on Intel's iHD,
//!   the low-power (VDEnc) encoder without HuC firmware: bit-rate control (CBR, VBR) runs on
//!   HuC, which i915 loads only where GuC/HuC loading is on (i915.enable_guc=2 or 3, the
//!   default from Alder Lake) and linux-firmware has the GPU's HuC file (jellyfin/jellyfin#9267
//!   on Arc: newer firmware fixed it).

use super::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RULE};

/// The rules.
pub(crate) const RULES: &[EmitterRule] = &[
    EmitterRule {
        emitter: "device-plugin",
        who: "the device plug-in",
        line: &[
            &["failed to create FS watcher", "too many open files"],
            &["Failed to create watcher for ", "device-plugins"],
            &["Failed to serve ", "too many open files"],
        ],
        operation: Operation::Open,
        object: ObjectAt::Is("the kubelet's device-plugins directory"),
        cause: "the plug-in could not create its inotify watcher on the kubelet's socket directory because the node ran out of inotify instances (fs.inotify.max_user_instances, 128 by default, shared by every process of a user; 'too many open files' is inotify's EMFILE, not the process's file limit), so it does not serve or re-register its GPU resource and pods asking for it stay Pending.",
        check: "on the node, 'sysctl fs.inotify.max_user_instances fs.inotify.max_user_watches'; raise them ('sysctl -w fs.inotify.max_user_instances=512' and a file in /etc/sysctl.d), then restart the plug-in's pod; 'find /proc/*/fd -lname anon_inode:inotify 2>/dev/null | cut -d/ -f3 | sort | uniq -c | sort -n' shows who holds them",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "vaapi",
        who: "ffmpeg's VA-API encoder",
        line: &[&["Driver does not support ", " RC mode (supported modes: "]],
        operation: Operation::MatchVersion,
        object: ObjectAt::After("Driver does not support "),
        cause: "the VA-API driver offers the encoder no {object} rate control: on an Intel GPU with the iHD driver, the low-power encoder's bit-rate control (CBR, VBR) runs on the HuC firmware, which the kernel did not load (GuC/HuC loading off, i915.enable_guc not 2 or 3 where it is not the default, or linux-firmware without this GPU's HuC file), so only CQP is offered; otherwise the GPU's encoder has no such mode for this codec.",
        check: "on the host, 'sudo cat /sys/kernel/debug/dri/0/gt/uc/huc_info' (or 'dmesg | grep -i huc') says whether HuC is loaded; install a current linux-firmware and set 'i915.enable_guc=2' (or 3) on older kernels, then reboot; 'vainfo' lists the encoder's entrypoints; or ask FFmpeg for CQP ('-rc_mode CQP')",
        ..RULE
    },
];
