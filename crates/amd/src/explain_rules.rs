//! AMD's emitters read by structure (issue 31): rocminfo's ROCk module check, the HSA
//! runtime's and HIP's status strings, and the dynamic loader on the ROCm libraries (which the
//! image ships: AMD's GPU stack passes only /dev/kfd and the render nodes). Sources in
//! docs/explain.md#emitters.

use gpuctl_core::plugin::{
    EmitterRule, LOADER, ObjectAt, Operation, Owner, RANK_DECISIVE, RANK_NOTE, RULE,
};

use crate::explain_rules_hip as hip;
use crate::explain_rules_hsa as hsa;
use crate::explain_rules_kernel as kernel;
use crate::explain_rules_smi as smi;

/// The ROCm user-space libraries: the image's own.
const IMAGE_LIBS: &[&str] = &[
    "libamdhip64",
    "librocblas",
    "libhsa-runtime64",
    "libMIOpen",
    "librocm",
    "libhipblas",
    "librccl",
    "libroctx",
    "librocsolver",
    "librocfft",
    "libhiprand",
    "librocrand",
    "libhipsparse",
    "libhipblaslt",
    "librocsparse",
    "libhipfft",
    "libmigraphx",
    "librocprofiler",
];

/// What rocminfo's and rocm-smi's "amdgpu not loaded" means: two readings the text cannot tell.
const AMDGPU_NOT_SEEN: &str = "the tool found no live amdgpu module under /sys/module, which has two readings: the amdgpu kernel driver (with KFD) is not loaded on the host, so ROCm has no GPU; or the tool ran where /sys/module does not show it (a container without the host's /sys/module, or a kernel with amdgpu built in) or could not run lsmod (rocminfo since ROCm 4.1 asks lsmod: an image without kmod, ROCm/tensorflow-upstream#1364), and the GPU may be fine. Not a permission problem of the render nodes.";

/// What to check for [`AMDGPU_NOT_SEEN`].
const AMDGPU_CHECK: &str = "on the host, 'lsmod | grep amdgpu' and 'cat /sys/module/amdgpu/initstate' (live) and 'dmesg | grep -i amdgpu'; if it is not loaded, install or load amdgpu (the distribution kernel's, or amdgpu-dkms for the ROCm release); if it is, the tool's check is wrong there and 'rocminfo' on the host tells";

/// The shape of both "amdgpu not loaded" rules: rocminfo's and rocm-smi's.
const AMDGPU_NOT_LOADED: EmitterRule = EmitterRule {
    operation: Operation::Initialise,
    object: ObjectAt::Is("the amdgpu kernel module"),
    cause: AMDGPU_NOT_SEEN,
    check: AMDGPU_CHECK,
    host_path: Some("/sys/module/amdgpu"),
    rank: RANK_DECISIVE,
    ..RULE
};

/// AMD's rules.
pub(crate) const RULES: &[EmitterRule] = &[
    // rocminfo.cc: "ROCk module is NOT loaded, possibly no GPU devices"; rocm-smi / amd-smi:
    // "Driver not initialized (amdgpu not found in modules)". Both read /sys/module/amdgpu
    // (lsmod in older rocminfo), which a container may not show although the host has the
    // module (ROCm/ROCm-docker#107) and a kernel with amdgpu built in has without `initstate`
    // (ROCm/amdsmi#172): both readings are said, and the host's /sys/module/amdgpu shown. Either
    // contradicts the render-group reading of the OUT_OF_RESOURCES that may follow.
    EmitterRule {
        emitter: "rocminfo",
        who: "rocminfo",
        line: &[&["ROCk module is NOT loaded"], &["ROCk module is NOT live"]],
        ..AMDGPU_NOT_LOADED
    },
    EmitterRule {
        emitter: "rocm-smi",
        who: "rocm-smi / amd-smi",
        line: &[
            &["driver not initialized (amdgpu not found in modules)"],
            &["Driver not initialized (amdgpu not found in modules)"],
        ],
        ..AMDGPU_NOT_LOADED
    },
    // amdgpu's KFD in the kernel log: "kfd kfd: amdgpu: <ASIC> not supported in kfd"; older
    // kernels "kfd not supported on this ASIC" (ROCm/legacy-rocm-build#572) and "DID <id> is
    // missing in supported_devices" (#1318).
    EmitterRule {
        emitter: "amdgpu-kernel-module",
        who: "the amdgpu kernel driver",
        line: &[
            &["kfd", "not supported in kfd"],
            &["kfd not supported on this ASIC"],
            &["kfd", "is missing in supported_devices"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("KFD (ROCm compute)"),
        cause: "this GPU has no ROCm compute support in the kernel (KFD refuses its ASIC), so no container setting makes ROCm see it.",
        check: "'gpuctl requirement' for the GPU; use a GPU that ROCm supports, or Vulkan / OpenCL through Mesa",
        rank: RANK_DECISIVE,
        ..RULE
    },
    // HSA runtime: hsa_status_t by name and number (explain_rules_hsa.rs).
    hsa::OUT_OF_RESOURCES,
    hsa::NOT_INITIALIZED,
    hsa::INVALID_ISA,
    hsa::MEMORY_FAULT,
    hsa::FAULT,
    hsa::QUEUE,
    hsa::PROGRAM,
    // ROCr (libhsakmt) and rocminfo: "Unable to open /dev/kfd read-write: %s" with ENOMEM.
    // KFD answers ENOMEM for a GPU it does not support, and the runtime's mapping of /dev/kfd
    // fails the same way when /dev is mounted noexec (ROCm/legacy-rocm-build#1185, #2232):
    // the text cannot tell which, so both are said and the host's /dev options shown. It
    // contradicts the render-group reading of the OUT_OF_RESOURCES that follows it.
    EmitterRule {
        emitter: "rocminfo",
        who: "the ROCm runtime",
        // strace's shape of the same open (ROCm/legacy-rocm-build#413):
        // `open("/dev/kfd", O_RDWR|O_CLOEXEC) = -1 ENOMEM (Cannot allocate memory)`.
        line: &[
            &["/dev/kfd read-write: Cannot allocate memory"],
            &["\"/dev/kfd\"", "ENOMEM"],
        ],
        operation: Operation::Open,
        object: ObjectAt::Is("/dev/kfd"),
        cause: "KFD refused the open with ENOMEM, which has two readings the text cannot tell apart: the host's amdgpu driver has no compute support for this GPU ('not supported in kfd' in the kernel log), or /dev is mounted noexec, so the runtime cannot map /dev/kfd's memory. Not a group problem.",
        check: "'sudo dmesg | grep kfd' on the host (a GPU KFD does not support runs ROCm in no container), and 'findmnt -no OPTIONS /dev' (remount without noexec: 'sudo mount -o remount,exec /dev', and drop noexec from the container's /dev mount)",
        host_mount: Some("/dev"),
        rank: RANK_DECISIVE,
        ..RULE
    },
    // libdrm's amdgpu_device_initialize: "<path>amdgpu.ids: No such file or directory" is a
    // warning (the marketing-name table is missing; ROCm/pytorch#984 calls it not fatal): a
    // note, which any line that names a failure outranks; alone it is the image's packaging
    // (libdrm-amdgpu-common not installed), not claimed.
    EmitterRule {
        emitter: "libdrm",
        who: "libdrm (amdgpu)",
        line: &[&["amdgpu.ids: No such file or directory"]],
        operation: Operation::Open,
        object: ObjectAt::Before(": No such file or directory"),
        // ROCm/TheRock#147: a bundled libdrm built with no data prefix looked in /share/libdrm.
        cause: "{object} is only libdrm's table of marketing names: without it the GPU is named 'AMD Radeon Graphics' and still works (a path that starts at /share/ is a libdrm built with no install prefix, as a ROCm bundle may ship it, looking in the wrong place). It is not why anything failed; if something did, the reason is on another line.",
        check: "to silence it, install libdrm-amdgpu-common (or link /opt/amdgpu/share/libdrm/amdgpu.ids to /usr/share/libdrm/amdgpu.ids); for a real failure read the other lines, or run 'rocminfo' in the container",
        owner: Owner::Image,
        rank: RANK_NOTE,
        ..RULE
    },
    // /dev/kfd by errno, amdgpu's kernel log, ROCm's device plugin (explain_rules_kernel.rs).
    kernel::KFD_EPERM,
    kernel::KFD_NODEV,
    kernel::KFD_GROUP,
    kernel::FIRMWARE,
    kernel::FIRMWARE_TA,
    kernel::INIT,
    kernel::KFD_SKIPPED,
    kernel::DKMS,
    kernel::HANG,
    kernel::PLUGIN,
    // amd-smi's and rocm-smi's statuses (explain_rules_smi.rs).
    smi::DRIVER,
    smi::NO_GPU,
    smi::PERMISSION,
    smi::NOT_FOUND,
    smi::LIBRARY,
    smi::BUSY,
    smi::UNSUPPORTED,
    smi::OTHER,
    smi::SENSORS,
    // HIP: hipError_t by name, message and number (explain_rules_hip.rs).
    hip::NO_DEVICE,
    hip::INVALID_DEVICE,
    hip::DRIVER,
    hip::TARGET,
    hip::INIT,
    hip::FAULT,
    hip::PROGRAM,
    // Round 8: HSA under WSL, a crash inside the HIP runtime (explain_rules_round8.rs).
    crate::explain_rules_round8::WSL,
    crate::explain_rules_round8::HIP_CRASH,
    crate::explain_rules_round8::BO_MAP_DENIED,
    crate::explain_rules_round8::MEM_INFO,
    crate::explain_rules_round9::LIBDRM,
    crate::explain_rules_round9::THUNK,
    crate::explain_rules_round9::ROCDXG,
    // ollama's GPU discovery (discover/amd_linux.go): "amdgpu is not supported (supported
    // types:[...])" gpu_type=gfx1031.
    EmitterRule {
        emitter: "ollama",
        who: "ollama's GPU discovery",
        line: &[&["amdgpu is not supported", "gpu_type="]],
        operation: Operation::MatchVersion,
        object: ObjectAt::After("gpu_type="),
        cause: "the GPU's LLVM target {object} is not among those ollama's ROCm build carries code for, so it runs on the CPU.",
        check: "'gpuctl requirement' gives the ROCm releases that list {object}; HSA_OVERRIDE_GFX_VERSION set to a supported target of the same family (10.3.0 for gfx103x) is ollama's documented override",
        ..RULE
    },
    // The same check's older wording (ollama before 0.1.33, gpu/amd_linux.go): "amdgpu [%d] %s
    // is not supported by %s %v" (ollama/ollama#4099, corpus 216), and its floor: "amdgpu too
    // old gfx%d%d%d" for a target below the oldest its ROCm build carries.
    EmitterRule {
        emitter: "ollama",
        who: "ollama's GPU discovery",
        line: &[&["amdgpu [", "is not supported by"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::Named,
        objects: &["gfx"],
        cause: "the GPU's LLVM target {object} is not among those ollama's ROCm build carries code for, so it runs on the CPU.",
        check: "'gpuctl requirement' gives the ROCm releases that list {object}; HSA_OVERRIDE_GFX_VERSION set to a supported target of the same family (10.3.0 for gfx103x, 11.0.0 for gfx110x) is ollama's documented override",
        ..RULE
    },
    EmitterRule {
        emitter: "ollama",
        who: "ollama's GPU discovery",
        line: &[&["amdgpu too old"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::Named,
        objects: &["gfx"],
        cause: "the GPU's LLVM target {object} is older than any ollama's ROCm build supports (gfx803 and the like were dropped by ROCm), so ollama does not use it; gfx000 is a node with no GPU behind it (a CPU's KFD node), not a failure.",
        check: "'rocminfo | grep gfx' names the GPU's target; an older ollama or a community ROCm build for it, or the CPU",
        ..RULE
    },
    // discover/amd_linux.go: "no compatible amdgpu devices detected" once every AMD GPU was
    // dropped (each by a line before it); logged as well on a host whose GPU is NVIDIA's, where
    // the NVIDIA GPU is used: a note, the answer only where nothing says more.
    EmitterRule {
        emitter: "ollama",
        who: "ollama's GPU discovery",
        line: &[&["no compatible amdgpu devices detected"]],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("an AMD GPU it supports"),
        cause: "ollama found no AMD GPU it can use: each was dropped on an earlier line of its log (a target outside its ROCm build, too old, an iGPU), or the container was not given /dev/kfd and the render nodes; on a host whose GPU is NVIDIA's this line is only informative.",
        check: "OLLAMA_DEBUG=1 names each GPU ollama looks at and why it is dropped; start the container with '--device /dev/kfd --device /dev/dri' (or 'gpuctl args amd') and the ollama/ollama:rocm image",
        rank: RANK_NOTE,
        ..RULE
    },
    // discover/amd_linux.go (verifyKFDDriverAccess): "amdgpu devices detected but permission
    // problems block access: %w".
    EmitterRule {
        emitter: "ollama",
        who: "ollama's GPU discovery",
        line: &[&["amdgpu devices detected but permission problems block access"]],
        operation: Operation::Open,
        object: ObjectAt::Is("/dev/kfd"),
        cause: "ollama sees the AMD GPU but may not open /dev/kfd or the render nodes: the process's user is not in their groups (render, video) in the container, or the nodes were bind-mounted rather than passed as devices.",
        check: "'ls -ln /dev/kfd /dev/dri' and 'id' inside the container; pass them as devices with their groups ('gpuctl args amd', or '--device /dev/kfd --device /dev/dri --group-add video --group-add render')",
        ..RULE
    },
    // ollama's GPU discovery: "unsupported Radeon iGPU detected skipping" is a note (the
    // discrete GPU beside it may be used: ollama/ollama#4836); "amdgpu detected, but no
    // compatible rocm library found" is an image without ollama's ROCm runners
    // (likelovewant/ollama-for-amd#33): the image's packaging, not the GPU's setup.
    EmitterRule {
        emitter: "ollama",
        who: "ollama's GPU discovery",
        line: &[&["unsupported Radeon iGPU detected skipping"]],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("an integrated Radeon GPU"),
        cause: "ollama skips integrated Radeon GPUs by design (its ROCm runners do not use them); a discrete GPU beside it is still used, so this is not why anything failed: if something did, the reason is on another line.",
        check: "'ollama ps' or its 'inference compute' log line names the GPU it uses; for an iGPU only, ollama runs on the CPU unless a build made for APUs is used",
        rank: RANK_NOTE,
        ..RULE
    },
    EmitterRule {
        emitter: "ollama",
        who: "ollama's GPU discovery",
        line: &[&["amdgpu detected, but no compatible rocm library found"]],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("ollama's ROCm runner libraries"),
        owner: Owner::Image,
        cause: "{object} are not in the image: it is a build of ollama without ROCm (the plain 'ollama/ollama' image carries CUDA runners only), so the AMD GPU it sees is not used.",
        check: "use the 'ollama/ollama:rocm' image (or install ollama's ROCm bundle) and pass '--device /dev/kfd --device /dev/dri'",
        ..RULE
    },
    // PyTorch prints torch.version.hip as None in a build without ROCm (torch/version.py is
    // generated with hip = None for a CUDA or CPU wheel; a CUDA wheel's version ends in +cuNNN):
    // where the text asks about HIP or ROCm, the image carries a CUDA or CPU-only PyTorch,
    // which an AMD GPU cannot run (invoke-ai/InvokeAI#7977, corpus 257).
    EmitterRule {
        emitter: "pytorch",
        who: "PyTorch",
        line: &[
            &["torch.version.hip: None"],
            &["torch.version.hip = None"],
            &["torch.version.hip None"],
        ],
        needs: &["ROCm", "rocm"],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("PyTorch's ROCm build"),
        owner: Owner::Image,
        cause: "the image's PyTorch is not a ROCm build (torch.version.hip is None: a CUDA wheel, +cuNNN, or a CPU-only one), so it cannot use an AMD GPU whatever the container is given.",
        check: "install PyTorch's ROCm wheel in the image (the index URL that names the ROCm release, e.g. https://download.pytorch.org/whl/rocm6.2) or start from a rocm/pytorch image; 'python -c \"import torch; print(torch.version.hip)\"' must print a version",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        objects: IMAGE_LIBS,
        owner: Owner::Image,
        cause: "{object} is a ROCm library, which the image must ship: AMD's GPU stack passes only /dev/kfd and the render nodes, never libraries.",
        check: "install it in the image (a rocm/dev-* base image, or the ROCm packages of the release the framework was built for)",
        ..LOADER
    },
];
