//! The vendor-neutral families: engines (podman, docker), OCI runtimes (crun, runc), the CDI
//! library, SELinux and the image's group file. The real texts behind each sign are test
//! cases in crates/cli/tests/explain_real.rs, with their sources.

use crate::check::codes;

use super::{
    Family, FamilyCode, PRIORITY_CDI, PRIORITY_CDI_SPECIFIC, PRIORITY_GROUPS, PRIORITY_KEEP_GROUPS,
    PRIORITY_PRECISE,
};

/// The hint for CDI problems (the reference's text, with the generators named).
pub const CDI_HINT: &str = "Hint: GPU CDI configuration appears to be missing or broken.\nEnsure the vendor's container toolkit is installed and a CDI spec is\ngenerated (nvidia-ctk / amd-ctk / intel-cdi-specs-generator).\nSee: https://podman-desktop.io/docs/podman/gpu";

/// The hint for keep-groups problems.
pub const KEEP_GROUPS_HINT: &str = "Hint: '--group-add keep-groups' (needed for AMD/Intel GPU render nodes)\nis only supported by the crun OCI runtime.  Install crun and run podman\nwith '--runtime crun' (or make crun podman's default runtime).";

/// The hint for a CDI spec older than the driver it describes.
pub const STALE_CDI_HINT: &str = "Hint: the CDI spec is stale: regenerate it after every driver upgrade, e.g.\n'sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml' or\n'sudo amd-ctk cdi generate --output=/etc/cdi/amd.json', then run\n'gpuctl doctor' to confirm every node and file it names exists.";

const CDI_DIAGNOSIS: &str = "podman could not set up a CDI device.";

/// Core's families, in catalogue order.
pub const CORE_FAMILIES: &[Family] = &[
    Family {
        code: FamilyCode::new("keep-groups-unsupported"),
        signs: &[&["keep-groups"], &["keep_original_groups"]],
        priority: PRIORITY_KEEP_GROUPS,
        diagnosis: "podman or its OCI runtime rejected '--group-add keep-groups' (runc ignores or refuses it; podman before 3.2 does not know it).",
        remedy: KEEP_GROUPS_HINT,
        checks: &[codes::OCI_RUNTIME],
    },
    Family {
        code: FamilyCode::new("selinux-denied"),
        signs: &[&["avc:  denied"], &["SELinux is preventing"]],
        priority: PRIORITY_PRECISE,
        diagnosis: "SELinux denied the container access to a device node (the container_t domain may not use device nodes unless container_use_devices is on).",
        remedy: "Hint: allow containers to use devices: 'sudo setsebool -P container_use_devices=true',\nor run this one container with '--security-opt=label=disable'.",
        checks: &[codes::SELINUX],
    },
    Family {
        code: FamilyCode::new("group-not-in-image"),
        signs: &[&["Unable to find group"], &["unable to find group"]],
        priority: PRIORITY_GROUPS,
        diagnosis: "a '--group-add' group name is not in the image's /etc/group.",
        remedy: "Hint: name groups by number ('--group-add <gid of /dev/dri/renderD128>'), or use\n'--group-add keep-groups' with crun, which needs no group names in the image.",
        checks: &[codes::RENDER_GROUPS],
    },
    Family {
        code: FamilyCode::new("render-node-denied"),
        signs: &[
            &["/dev/dri/renderD", "Permission denied"],
            &["/dev/dri/card", "Permission denied"],
            // An application's own check says it in lower case ("VAAPI device
            // /dev/dri/renderD128 is not accessible (permission denied)",
            // stevezau/media_preview_generator#193).
            &["/dev/dri/renderD", "permission denied"],
            &["/dev/dri/card", "permission denied"],
        ],
        priority: PRIORITY_GROUPS + 1,
        diagnosis: "the container's process may not open a DRM node: the invoking user is not in the group that owns it, or that group did not reach the container (no '--group-add keep-groups', or a runtime other than crun).",
        remedy: "Hint: add yourself to the node's group ('sudo usermod -aG $(stat -c %G /dev/dri/renderD128) $USER',\nthen log in again) and run podman with '--group-add keep-groups' under crun.",
        checks: &[codes::RENDER_GROUPS, codes::OCI_RUNTIME],
    },
    Family {
        code: FamilyCode::new("render-node-missing"),
        signs: &[
            // docker: "error gathering device information while adding custom device
            // \"/dev/dri\": no such file or directory"; podman: "stat /dev/dri/renderD128: ...".
            &["custom device \"/dev/dri", "no such file or directory"],
            &["stat /dev/dri/", "no such file or directory"],
        ],
        priority: PRIORITY_PRECISE,
        diagnosis: "a DRM node the container is given (/dev/dri or one of its renderD nodes) does not exist on this machine: no GPU driver created it (no GPU, its driver not loaded, a VM or Docker Desktop without the GPU), or the node has another number here.",
        remedy: "Hint: list the host's nodes ('ls -l /dev/dri') and pass those that exist, as 'gpuctl args' prints them for\nthis host ('podman run $(gpuctl args) ...'); with none, load the GPU's kernel driver first.",
        // Under CDI, a spec naming a render node the host lacks (cdi-stale).
        checks: &[codes::TIER, codes::RENDER_GROUPS, codes::CDI_STALE],
    },
    Family {
        code: FamilyCode::new("cdi-stale-spec"),
        signs: &[
            &["failed to stat CDI host device"],
            // crun before 1.15 and after; a volume that is merely unreadable says "Permission
            // denied" instead and is not a GPU problem.
            &["error stat'ing file", "No such file or directory"],
            &["cannot stat `", "No such file or directory"],
            // runc: "error mounting %q to rootfs at %q: %w" (libcontainer/rootfs_linux.go).
            &[
                "error mounting \"",
                "to rootfs at",
                "no such file or directory",
            ],
        ],
        priority: PRIORITY_CDI_SPECIFIC - 3,
        diagnosis: "a device node or file the CDI spec hands to the container does not exist on the host: the spec is stale (driver upgrade, GPU change, or a spec from another machine) and must be regenerated.",
        remedy: STALE_CDI_HINT,
        checks: &[codes::CDI_STALE],
    },
    Family {
        code: FamilyCode::new("cdi-spec-rejected"),
        signs: &[&["failed to parse CDI Spec"], &["failed to load CDI Spec"]],
        priority: PRIORITY_CDI_SPECIFIC - 2,
        diagnosis: "podman's CDI library rejected a spec file: it uses fields or a cdiVersion newer than this podman reads, or it is not valid.",
        remedy: "Hint: upgrade podman, or regenerate the spec in a version this podman reads;\n'gpuctl doctor' compares each spec's cdiVersion with the installed podman.",
        checks: &[codes::CDI_VERSION],
    },
    Family {
        code: FamilyCode::new("cdi-unresolvable"),
        signs: &[&["unresolvable CDI devices"]],
        priority: PRIORITY_CDI_SPECIFIC,
        diagnosis: "no CDI spec podman could load declares the requested device: the spec is missing, unreadable, invalid, or newer than this podman's CDI library (podman drops such specs without saying why).",
        remedy: CDI_HINT,
        checks: &[codes::CDI_VERSION, codes::CDI_READABLE],
    },
    Family {
        code: FamilyCode::new("cdi-no-vendor"),
        signs: &[&["could not discover GPU vendor"]],
        priority: PRIORITY_CDI_SPECIFIC,
        diagnosis: "podman's --gpus found no nvidia.com or amd.com CDI spec to map the request to.",
        remedy: CDI_HINT,
        checks: &[codes::CDI_READABLE],
    },
    Family {
        code: FamilyCode::new("cdi-mention"),
        signs: &[&["cdi.k8s.io"], &["CDI"]],
        priority: PRIORITY_CDI,
        diagnosis: CDI_DIAGNOSIS,
        remedy: CDI_HINT,
        checks: &[codes::CDI_VERSION, codes::CDI_READABLE, codes::CDI_STALE],
    },
];

/// A registered vendor's CDI kind (`nvidia.com/gpu`) counts as a mention of CDI.
pub(crate) const KIND_MENTION: Family = Family {
    code: FamilyCode::new("cdi-mention"),
    signs: &[],
    priority: PRIORITY_CDI,
    diagnosis: CDI_DIAGNOSIS,
    remedy: CDI_HINT,
    checks: &[codes::CDI_VERSION, codes::CDI_READABLE, codes::CDI_STALE],
};

/// podman before CDI (or a compose tool passing the name as a path) took a CDI name for a
/// host path.
pub(crate) const NAME_AS_PATH: Family = Family {
    code: FamilyCode::new("cdi-name-as-path"),
    signs: &[],
    priority: PRIORITY_CDI_SPECIFIC,
    diagnosis: "",
    remedy: CDI_HINT,
    checks: &[codes::PODMAN],
};

/// Words that name a GPU component in any vendor's stack: a failure that matches no family but
/// says one of these is GPU-related and is answered as [`super::UNRECOGNISED`].
pub(crate) const CORE_WORDS: &[&str] = &[
    "/dev/dri/",
    "\"/dev/dri\"",
    "render node",
    // The graphics loaders' own prefixes (issue 31: a loader's failure is never silent).
    "libva error:",
    "MESA-LOADER:",
    "vkCreateInstance",
    "VK_ERROR_",
];

/// The answer for a GPU-related failure no family knows.
pub(crate) const UNRECOGNISED_FAMILY: Family = Family {
    code: super::UNRECOGNISED,
    signs: &[],
    priority: u8::MAX,
    diagnosis: "",
    remedy: "Hint: gpuctl does not know this failure; the lines above are what names a GPU component. Run 'gpuctl doctor'\nfor every host check, and please report the text (with its source) so that a family can be added.",
    checks: &[],
};
