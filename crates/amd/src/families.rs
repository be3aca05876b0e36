//! AMD's failure families: what KFD, the HSA runtime, HIP and rocBLAS print, by cause. The real
//! texts are in crates/cli/tests/explain_real.rs and explain_corpus/, with their sources.

use gpuctl_core::plugin::codes;
use gpuctl_core::plugin::{Family, FamilyCode, PRIORITY_GROUPS, PRIORITY_PRECISE};

use crate::doctor;

/// No code object for the GPU's target: explain adds the host GPUs' targets.
pub const HIP_NO_CODE_OBJECT: FamilyCode = FamilyCode::new("amd-hip-no-code-object");
/// A memory aperture violation: explain adds the same.
pub const HSA_MEMORY_FAULT: FamilyCode = FamilyCode::new("amd-hsa-memory-fault");

/// ROCm's failures by what the kernel answered: `/dev/kfd` refused with EACCES is a group
/// problem, EINVAL and ENOMEM are not (KFD itself refused), and the HSA runtime's
/// out-of-resources is what ROCm says when it reached `/dev/kfd` but not every render node.
pub const FAMILIES: &[Family] = &[
    Family {
        code: FamilyCode::new("amd-kfd-permission-denied"),
        signs: &[&["/dev/kfd", "Permission denied"]],
        priority: PRIORITY_GROUPS,
        diagnosis: "the container may not open /dev/kfd: its user lacks the group that owns /dev/kfd on the host (render or video), or that group did not reach the container.",
        remedy: "Hint: add yourself to the group that owns /dev/kfd ('sudo usermod -aG $(stat -c %G /dev/kfd) $USER',\nthen log in again) and run podman with '--group-add keep-groups' under crun (gpuctl adds it).",
        checks: &[codes::RENDER_GROUPS, codes::OCI_RUNTIME],
    },
    Family {
        code: FamilyCode::new("amd-kfd-invalid-argument"),
        signs: &[&["/dev/kfd read-write: Invalid argument"]],
        priority: PRIORITY_PRECISE,
        diagnosis: "/dev/kfd was opened but the kernel's KFD refused the ROCm runtime (EINVAL): not a group problem — the host's amdgpu driver and the image's ROCm release do not fit together, or the container (an unprivileged LXC, a VM) does not see the GPU's render nodes.",
        remedy: "Hint: compare the host driver ('cat /sys/module/amdgpu/version', 'dmesg | grep kfd') with the\nimage's ROCm release, and pass the render nodes with /dev/kfd ('gpuctl args amd').",
        checks: &[codes::RENDER_GROUPS],
    },
    Family {
        code: FamilyCode::new("amd-kfd-missing"),
        signs: &[
            &["/dev/kfd read-write: No such file or directory"],
            &["\"/dev/kfd\": no such file or directory"],
            &["stat /dev/kfd: no such file or directory"],
            // docker's wording as a user copies it (ROCm/legacy-rocm-build#4062, corpus 248).
            &["/dev/kfd no such file or directory"],
        ],
        priority: PRIORITY_PRECISE,
        diagnosis: "/dev/kfd is missing: on the host the amdgpu driver was loaded without KFD, or /dev/kfd was not passed to the container. Under WSL2 there is no /dev/kfd at all: ROCm on WSL reaches the GPU through /dev/dxg, so a native Linux recipe's '--device /dev/kfd' cannot work there.",
        remedy: "Hint: load amdgpu on the host ('sudo modprobe amdgpu') and pass '--device /dev/kfd' with the\nrender nodes ('podman run $(gpuctl args amd) ...').",
        checks: &[doctor::DRIVER, doctor::KFD_CHECK],
    },
    Family {
        code: FamilyCode::new("amd-hsa-out-of-resources"),
        signs: &[&["HSA_STATUS_ERROR_OUT_OF_RESOURCES"]],
        priority: PRIORITY_GROUPS + 2,
        // On a bare host the kernel side is the other reading (ROCm/legacy-rocm-build#5433: an
        // amdgpu-dkms and firmware release that regressed on a gfx1150 APU).
        diagnosis: "the ROCm runtime reached /dev/kfd but could not set up every GPU: in a container (rootless above all) this happens when only some render nodes are passed, or the user lacks the group that owns them; on a bare host, or where every node is given, the amdgpu kernel driver or its firmware does not support this GPU's compute (a DKMS or firmware release that regressed on it, a GPU newer than the driver).",
        remedy: "Hint: pass every AMD render node with /dev/kfd ('podman run $(gpuctl args amd) ...'), add yourself\nto the render group ('sudo usermod -aG render $USER') and keep it with '--group-add keep-groups'; if rocminfo\nfails on the host too, 'sudo dmesg | grep -e kfd -e amdgpu' and try the amdgpu driver and firmware release before.",
        checks: &[codes::RENDER_GROUPS, codes::OCI_RUNTIME],
    },
    Family {
        code: FamilyCode::new("amd-no-hip-device"),
        signs: &[&["No HIP GPUs are available"], &["hipErrorNoDevice"]],
        priority: PRIORITY_GROUPS + 4,
        // Set Q's threads: rootless podman dropping the user's render and video groups
        // (vllm-project/vllm#34573: '--group-add keep-groups' fixed it), and Docker Desktop's
        // engine, which runs in a VM that has no host GPU (vllm-project/vllm#7207: the plain
        // Docker Engine fixed it).
        diagnosis: "the HIP runtime found no GPU: /dev/kfd and the render nodes did not reach the process (not passed, or the engine runs in a VM that has no host GPU: Docker Desktop, podman machine), it may not open them (its user lacks the render and video groups: rootless podman drops them unless run with '--group-add keep-groups'), or the GPU is not one this ROCm release supports.",
        remedy: "Hint: start the container with 'podman run $(gpuctl args amd) ...' (or 'gpuctl run --gpus amd -- ...');\nrootless, keep your groups ('--group-add keep-groups'); use the host's Docker Engine or podman, not\nDocker Desktop's VM; and check the host with 'gpuctl doctor amd'.",
        checks: &[codes::TIER, codes::RENDER_GROUPS],
    },
    Family {
        code: FamilyCode::new("amd-hsa-init"),
        // The HSA samples' "Initializing the hsa runtime failed" (ROCm/ROCR-Runtime's issues: a
        // stale libhsakmt from an older ROCm left beside the new one).
        signs: &[
            &["hsa_init failed"],
            &["hsa_init fails"],
            &["Initializing the hsa runtime failed"],
        ],
        priority: PRIORITY_GROUPS + 3,
        diagnosis: "the ROCm runtime failed to initialise (hsa_init): it found no usable GPU through /dev/kfd and the render nodes, or its thunk (libhsakmt) is of another release than the kernel's KFD (a stale copy left by an older ROCm).",
        remedy: "Hint: run 'gpuctl doctor amd' on the host, then start the container with\n'podman run $(gpuctl args amd) ...'.",
        checks: &[codes::RENDER_GROUPS, doctor::KFD_CHECK],
    },
    Family {
        code: HIP_NO_CODE_OBJECT,
        signs: &[
            &["hipErrorNoBinaryForGpu"],
            &["HSA_STATUS_ERROR_INVALID_ISA"],
            &["rocBLAS error: Cannot read", "TensileLibrary"],
            // The same where the paste lost the line's start ("ocBLAS error: …"), and an
            // application's own words for it (ROCm/rocBLAS#1331: "TensileLibrary.dat not
            // found" for a gfx101x GPU the packaged rocBLAS has no Tensile library for).
            &["TensileLibrary.dat", "for GPU arch"],
            &["TensileLibrary.dat not found"],
            // ROCm/clr hipamd/src/hip_fatbin.cpp: "No compatible code objects found for: %s"
            // (the GPU's target id), when a fat binary holds no code object for it.
            &["No compatible code objects found for"],
            // ROCm/rocBLAS library/src/tensile_host.cpp: "rocBLAS warning: No paths matched %s"
            // when no Tensile code object of the GPU's target is installed.
            &["rocBLAS warning: No paths matched"],
        ],
        priority: PRIORITY_PRECISE,
        diagnosis: "the program has no GPU code for this GPU's LLVM target: the ROCm build in the image (HIP, rocBLAS's kernel library) was not built for it, so it runs on no container set-up until the image fits the GPU.",
        remedy: "Hint: use an image built with a ROCm release that lists the GPU's target ('gpuctl requirement <device id>' names\nboth); for a target close to a listed one people set HSA_OVERRIDE_GFX_VERSION (e.g. '-e HSA_OVERRIDE_GFX_VERSION=10.3.0'\nfor a gfx103x GPU), which AMD does not support.",
        checks: &[doctor::DRIVER],
    },
    Family {
        code: HSA_MEMORY_FAULT,
        signs: &[&["HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION"]],
        priority: PRIORITY_PRECISE,
        diagnosis: "a GPU kernel touched memory outside its range (an HSA memory aperture violation): most often code built for another target run through HSA_OVERRIDE_GFX_VERSION, otherwise a bug of the program or the ROCm release; not a container set-up problem.",
        remedy: "Hint: drop HSA_OVERRIDE_GFX_VERSION, or use an image whose ROCm release lists this GPU's target\n('gpuctl requirement <device id>'); if it does, report the crash to the program with its ROCm release.",
        checks: &[doctor::DRIVER],
    },
];
