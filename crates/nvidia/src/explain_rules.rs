//! NVIDIA's emitters read by structure (issue 31): nvidia-container-cli (the legacy hook's
//! library, `nvidia-container-cli: <stage> error: <reason>`), NVML (nvmlErrorString's values,
//! and go-nvml's `ERROR_*` names as nvidia-ctk and the device plugin print them), the CUDA
//! runtime and driver API (cudaGetErrorString's strings and the CUresult names), the kernel
//! module (`NVRM:`), the Kubernetes device plugin, and the dynamic loader on NVIDIA's
//! libraries. Sources per rule in docs/explain.md#emitters.

use crate::explain_rules_libs::{DRIVER_CHECK, DRIVER_LIBS, IMAGE_LIBS, JETSON};
use gpuctl_core::plugin::{
    EmitterRule, LOADER, ObjectAt, Operation, Owner, RANK_DECISIVE, RANK_VAGUE, RULE,
};

/// NVML's lines: nvidia-smi's and every NVML caller's.
const NVML: EmitterRule = EmitterRule {
    emitter: "nvml",
    who: "NVML",
    ..RULE
};

/// nvidia-container-cli's lines: `nvidia-container-cli: <stage> error: <reason>`.
const CLI: EmitterRule = EmitterRule {
    emitter: "nvidia-container-cli",
    who: "nvidia-container-cli (the legacy hook)",
    ..RULE
};

/// NVIDIA's rules: these, CUDA's ([`crate::explain_rules_cuda::RULES`] and the codes of
/// [`crate::explain_rules_cuda_codes::RULES`]), NVML's return codes
/// ([`crate::explain_rules_nvml::RULES`]) and the toolkit's and engines' on NVIDIA's binaries
/// ([`crate::explain_rules_toolkit::RULES`]), the kernel module's Xid events and the vGPU
/// licence ([`crate::explain_rules_xid::RULES`]), the loaders' words for the driver's
/// libraries ([`crate::explain_rules_loaders::RULES`]), and round 4's classes: the legacy
/// hook's stages and reasons ([`crate::explain_rules_cli::RULES`],
/// [`crate::explain_rules_cli_stages::RULES`]), the rest of NVML's and CUDA's enums
/// ([`crate::explain_rules_nvml_codes::RULES`], [`crate::explain_rules_cuda_enum::RULES`]),
/// the toolkit's Go binaries ([`crate::explain_rules_ctk::RULES`]), the Kubernetes components
/// ([`crate::explain_rules_k8s::RULES`]) and the driver's own processes
/// ([`crate::explain_rules_kernel::RULES`]), and round 5's
/// ([`crate::explain_rules_environment::RULES`]) and round 6's applications
/// ([`crate::explain_rules_apps::RULES`]), and round 7's kernel-module build and boot fallback
/// ([`crate::explain_rules_build::RULES`]), and round 8's ([`crate::explain_rules_round8::RULES`])
/// and round 9's ([`crate::explain_rules_round9::RULES`]), read as one list.
pub(crate) static ALL: std::sync::LazyLock<Vec<EmitterRule>> = std::sync::LazyLock::new(|| {
    [
        RULES,
        crate::explain_rules_cuda::RULES,
        crate::explain_rules_cuda_codes::RULES,
        crate::explain_rules_nvml::RULES,
        crate::explain_rules_toolkit::RULES,
        crate::explain_rules_xid::RULES,
        crate::explain_rules_loaders::RULES,
        crate::explain_rules_cli::RULES,
        crate::explain_rules_cli_stages::RULES,
        crate::explain_rules_ctk::RULES,
        crate::explain_rules_k8s::RULES,
        crate::explain_rules_kernel::RULES,
        crate::explain_rules_environment::RULES,
        crate::explain_rules_environment::TORCH_ARCH,
        crate::explain_rules_frameworks::RULES,
        crate::explain_rules_apps::RULES,
        crate::explain_rules_build::RULES,
        crate::explain_rules_round8::RULES,
        crate::explain_rules_round9::RULES,
        crate::explain_rules_round9_driver::RULES,
    ]
    .concat()
    .into_iter()
    .chain(crate::explain_rules_nvml_codes::rules())
    .chain(crate::explain_rules_cuda_enum::rules())
    .chain(crate::explain_rules_capabilities::rules())
    .collect()
});

/// The toolkit's, NVML's, the kernel module's, the device plugin's and the loader's rules.
const RULES: &[EmitterRule] = &[
    // libnvidia-container: "nvml error: %s" with nvmlErrorString lower-cased.
    EmitterRule {
        line: &[&["nvml error: driver not loaded"]],
        operation: Operation::Initialise,
        object: ObjectAt::Is("NVML"),
        cause: "NVML reports the NVIDIA kernel driver is not loaded on this host: no nvidia module for the running kernel (not built after a kernel upgrade, refused by Secure Boot, or nouveau bound instead), or a host with no NVIDIA GPU.",
        check: DRIVER_CHECK,
        host_path: Some("/sys/module/nvidia"),
        rank: RANK_DECISIVE,
        ..CLI
    },
    EmitterRule {
        line: &[&["WSL environment detected but no adapters were found"]],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("a WSL GPU adapter"),
        cause: "this is WSL and Windows exposes no GPU to it: the Windows NVIDIA driver is too old for WSL's GPU paravirtualisation, the distribution runs as WSL 1, or Docker Desktop's WSL 2 backend has no GPU.",
        check: "'nvidia-smi' inside the WSL distribution and 'wsl -l -v' (version 2) on Windows; install the current Windows NVIDIA driver (never a Linux driver inside WSL)",
        ..CLI
    },
    EmitterRule {
        line: &[&[
            "nvidia-container-cli: mount error: file creation failed: ",
            "file exists",
        ]],
        operation: Operation::Mount,
        object: ObjectAt::After("file creation failed: "),
        cause: "the image already holds {object}, a file the hook mounts from the host: the image carries NVIDIA driver libraries of its own (built by 'docker commit' from a GPU container, or on WSL copied from /usr/lib/wsl); on Jetson, whose CSV files (/etc/nvidia-container-runtime/host-files-for-container.d) mount the host's CUDA, cuDNN and TensorRT too, the image ships them itself instead of being an L4T image.",
        check: "rebuild the image without the driver's libraries (no libnvidia-*, libcuda.so* in it; 'docker run --rm IMAGE ls -l /usr/lib/x86_64-linux-gnu | grep -e nvidia -e libcuda')",
        ..CLI
    },
    // `mount error: stat failed: /dev/<node>`: on Jetson the CSV files name device nodes of
    // every Tegra board (NVIDIA/nvidia-container-runtime#123: /dev/nvidiactl from l4t.csv).
    EmitterRule {
        line: &[&["nvidia-container-cli: mount error: stat failed: /dev/"]],
        operation: Operation::Stat,
        object: ObjectAt::After("stat failed: "),
        cause: "the hook was asked to mount the device node {object}, which this host does not have: on Jetson the CSV files (host-files-for-container.d/l4t.csv) list nodes of every Tegra board, and a toolkit that does not skip the ones this board lacks fails; elsewhere the driver module that creates it is not loaded (nvidia-uvm, nvidia-modeset).",
        check: "'ls -l {object}' on the host; on Jetson upgrade nvidia-container-toolkit (current releases skip CSV entries a board lacks) or drop the line from the CSV file; elsewhere 'sudo modprobe nvidia-uvm' (or the module that creates it)",
        ..CLI
    },
    EmitterRule {
        line: &[&["nvidia-container-cli: ldcache error: open failed: "]],
        operation: Operation::Open,
        object: ObjectAt::After("ldcache error: open failed: "),
        // OE4T/meta-tegra#1427: a Yocto image without ldconfig at all.
        cause: "the ldconfig the toolkit's config.toml names ({object}) does not exist: a config written for another distribution ('@/sbin/ldconfig.real' is Debian and Ubuntu's), or a host image without ldconfig at all (a minimal or Yocto build, whose toolkit package did not pull it in).",
        check: "set 'ldconfig = \"@/sbin/ldconfig\"' (or the path 'command -v ldconfig' prints) in /etc/nvidia-container-runtime/config.toml",
        ..CLI
    },
    EmitterRule {
        line: &[
            &["nvidia-container-cli: ", "driver rpc error: "],
            &["nvidia-container-cli: ", "driver error: "],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("its driver service"),
        cause: "the hook's driver service could not query the driver: it timed out or failed on a GPU that is hung, in a bad state or still initialising (many GPUs without the persistence daemon), or on a kernel module it could not use.",
        check: "'nvidia-smi' and 'dmesg | grep -i -e NVRM -e Xid' on the host; enable the persistence daemon ('sudo systemctl enable --now nvidia-persistenced'); a GPU in a bad state needs a reset or a reboot",
        rank: RANK_VAGUE,
        ..CLI
    },
    // NVML's nvmlErrorString values as nvidia-smi and NVML's users print them.
    EmitterRule {
        line: &[
            &["NVML: Driver Not Loaded"],
            &["NVML: Driver not loaded"],
            &["ERROR_DRIVER_NOT_LOADED"],
            &["NVMLError_DriverNotLoaded"],
        ],
        cause: "the NVIDIA kernel driver is not loaded on this host.",
        check: DRIVER_CHECK,
        host_path: Some("/sys/module/nvidia"),
        rank: RANK_DECISIVE,
        ..NVML
    },
    EmitterRule {
        line: &[
            &["NVML Shared Library Not Found"],
            &["ERROR_LIBRARY_NOT_FOUND"],
            &["could not load NVML library"],
            &["NVMLError_LibraryNotFound"],
        ],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Is("libnvidia-ml.so.1"),
        cause: "the driver's NVML library is not where the caller runs: on a host, no NVIDIA driver (or only its kernel part) is installed; in a container (nvidia-ctk, the device plugin), the container was not given the driver, since its runtime is not the NVIDIA runtime (default runtime or RuntimeClass) and no CDI device was requested.",
        check: "'ldconfig -p | grep libnvidia-ml' where it ran; for a Kubernetes plug-in, the node's containerd or CRI-O must run it with the nvidia runtime ('nvidia-ctk runtime configure', a RuntimeClass 'nvidia' named by the plug-in's pod)",
        ..NVML
    },
    EmitterRule {
        line: &[
            &["GPU is lost"],
            &["nvml error: gpu is lost"],
            &["ERROR_GPU_IS_LOST"],
            &["NVMLError_GpuIsLost"],
            &["has fallen off the bus"],
        ],
        operation: Operation::FindDevice,
        cause: "the GPU stopped answering (it fell off the PCIe bus: Xid 79, power, heat, a riser or a failing GPU); nothing in the container or its configuration causes this.",
        check: "'dmesg | grep -i -e Xid -e \"fallen off\"' on the host; reset the GPU ('nvidia-smi -r') or reboot, and check power and cooling",
        rank: RANK_DECISIVE,
        ..NVML
    },
    EmitterRule {
        line: &[
            &["RM has detected an NVML/RM version mismatch"],
            &["ERROR_LIB_RM_VERSION_MISMATCH"],
            &["NVMLError_LibRmVersionMismatch"],
            &["NVRM: API mismatch"],
        ],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the kernel module's version"),
        cause: "the user-space driver libraries and the loaded kernel module are of different releases: the driver was upgraded without a reboot, or the container carries driver libraries of its own.",
        check: "compare 'cat /proc/driver/nvidia/version' with the libnvidia-ml.so.<version> the caller loaded; reboot after a driver upgrade",
        ..NVML
    },
    EmitterRule {
        line: &[
            &["NVML: Function Not Found"],
            &["nvml: Function Not Found"],
            &["nvml error: function not found"],
            &["ERROR_FUNCTION_NOT_FOUND"],
            &["NVMLError_FunctionNotFound"],
        ],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("an NVML function"),
        cause: "the host's libnvidia-ml is older than the program calling it (a tool built for a newer driver branch).",
        check: "upgrade the host driver, or use the tool release that matches it ('nvidia-smi' prints the driver version)",
        ..NVML
    },
    // NVML_ERROR_INSUFFICIENT_RESOURCES ("Insufficient Resources") creating a MIG instance, as
    // the MIG manager and the DRA driver print it.
    EmitterRule {
        line: &[
            &["GPU instance", "Insufficient Resources"],
            &["compute instance", "Insufficient Resources"],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::Is("a MIG instance"),
        cause: "the GPU has no free slice for that MIG profile: instances already created (by hand, by another claim, or left behind by one that was not cleaned up) occupy it.",
        check: "'nvidia-smi mig -lgi' and 'nvidia-smi mig -lci' list the instances that exist; destroy the stale ones or pick a profile that fits",
        ..NVML
    },
    // nvidia-smi with NVML initialised and no device: "No devices were found".
    EmitterRule {
        line: &[&["No devices were found"]],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("an NVIDIA GPU"),
        cause: "the driver is loaded but brought up no GPU: the kernel log says why (RmInitAdapter failed, GSP firmware, a GPU this branch does not drive, a GPU bound to vfio-pci or another driver, or an unlicensed vGPU).",
        check: "'dmesg | grep -i nvrm' and 'lspci -k -d 10de:' (the driver in use) on the host",
        rank: RANK_VAGUE,
        ..NVML
    },
    // The kernel module's own log (NVRM:).
    EmitterRule {
        emitter: "nvidia-kernel-module",
        who: "the NVIDIA kernel module",
        line: &[
            &["NVRM: ", "RmInitAdapter failed"],
            &["NVRM: ", "GSP", "failed"],
        ],
        operation: Operation::Initialise,
        object: ObjectAt::Is("the GPU"),
        // The machine's firmware not giving the GPU its address space is a cause too
        // (NVIDIA/open-gpu-kernel-modules#862: an RTX 5090 with Resizable BAR and Above 4G
        // Decoding off in the BIOS).
        cause: "the driver loaded but could not bring the GPU up: GSP firmware failed to boot (an open kernel module on a GPU or driver that needs the proprietary one, or missing firmware files), the machine's firmware did not give the GPU the PCI address space it needs (Above 4G Decoding or Resizable BAR off in the BIOS, which recent GPUs need), or a GPU in a bad state.",
        check: "'dmesg | grep NVRM' shows the failing step; 'sudo lspci -vv -s <bus id> | grep -i -e region -e resizable' shows the BARs; enable Above 4G Decoding and Resizable BAR in the BIOS; try NVreg_EnableGpuFirmware=0 with the proprietary module, or the other kernel module flavour; check /lib/firmware/nvidia/<version>/ exists",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "nvidia-kernel-module",
        who: "the NVIDIA kernel module",
        line: &[
            &["NVRM: ", "supported through the NVIDIA"],
            &["NVRM: No NVIDIA GPU found"],
            &["NVRM: No NVIDIA devices probed"],
        ],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the GPU"),
        cause: "the installed driver branch does not drive this GPU (a GPU that needs a legacy branch, or one newer than the branch), so no NVIDIA device was probed.",
        check: "'gpuctl requirement' names the branches that support this GPU; install one of them",
        rank: RANK_DECISIVE,
        ..RULE
    },
    // NVIDIA/k8s-device-plugin: "No devices found. Waiting indefinitely."
    EmitterRule {
        emitter: "device-plugin",
        who: "NVIDIA's device plugin",
        line: &[&["No devices found. Waiting indefinitely"]],
        operation: Operation::FindDevice,
        object: ObjectAt::Is("nvidia.com/gpu"),
        cause: "the plugin found no GPU to advertise on this node: the node has none, the plugin's container was not given the driver (its runtime is not the NVIDIA runtime), or a MIG strategy that hides whole GPUs.",
        check: "the plugin pod's log lines before this one; 'nvidia-smi -L' on the node; the node's containerd or CRI-O must run the plugin with the nvidia runtime",
        ..RULE
    },
    // The dynamic loader (ld.so, dlopen, Python's ImportError) on NVIDIA's libraries.
    // The toolkit's own library: "nvidia-container-cli: error while loading shared libraries:
    // libnvidia-container.so.1" (NVIDIA/libnvidia-container#2); more specific than the driver's.
    EmitterRule {
        objects: &["libnvidia-container"],
        cause: "{object} is the NVIDIA Container Toolkit's own library on the host, not the driver's: the toolkit is installed incompletely (the libnvidia-container1 package missing, or ldconfig not run since it was installed).",
        check: "reinstall the toolkit's packages (libnvidia-container1, libnvidia-container-tools, nvidia-container-toolkit) and run 'sudo ldconfig'; 'nvidia-container-cli --version' must then run",
        rank: RANK_DECISIVE + 1,
        ..LOADER
    },
    EmitterRule {
        objects: DRIVER_LIBS,
        cause: "{object} is the host driver's, which the GPU stack mounts into a container given the GPU: this container was not given it (no '--device nvidia.com/gpu=all' or '--gpus', or the engine ignored it), or the host has no driver.",
        check: "give the container the GPU ('podman run $(gpuctl args nvidia) ...') and check 'nvidia-smi' inside it; on the host, 'ldconfig -p | grep libcuda'",
        ..LOADER
    },
    // On a Jetson (L4T) the NVIDIA runtime mounts JetPack's CUDA libraries from the host (the
    // CSV files under /etc/nvidia-container-runtime/host-files-for-container.d): an l4t image
    // holds them only in a container that runtime starts, and a docker build step runs with it
    // only when it is docker's default runtime (dusty-nv/jetson-containers' setup docs;
    // corpus 272's and set J's threads).
    EmitterRule {
        objects: IMAGE_LIBS,
        needs: JETSON,
        cause: "on a Jetson the NVIDIA runtime mounts JetPack's CUDA libraries, {object} among them, from the host into a container it starts: this one was started without it, most often a 'docker build' step, which uses the NVIDIA runtime only when it is docker's default.",
        check: "set '\"default-runtime\": \"nvidia\"' in /etc/docker/daemon.json and restart docker before building, and run containers with '--runtime nvidia'; 'ls /etc/nvidia-container-runtime/host-files-for-container.d' lists what it mounts",
        rank: RANK_DECISIVE + 1,
        ..LOADER
    },
    EmitterRule {
        objects: IMAGE_LIBS,
        owner: Owner::Image,
        cause: "{object} belongs to the CUDA toolkit or an NVIDIA SDK (cuDNN, cuBLAS, NCCL, TensorRT), which the image must ship: the GPU stack mounts only the driver's libraries.",
        check: "install it in the image (a CUDA 'runtime' or 'cudnn' base image, or the pip wheels nvidia-cudnn-cu12 / nvidia-cublas-cu12) in the version the framework was built for",
        ..LOADER
    },
];
