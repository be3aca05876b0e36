//! Issue 31, round 9 (set R's misses as classes): the NVIDIA kernel module's build and load,
//! the driver's user-space API versions, and the engines that run the toolkit's binaries
//! themselves. Each string is the emitter's own, named beside its rule.
//!
//! - The driver's PCI probe (kernel/nvidia/nv-pci.c): "NVRM: GPU %s is already bound to %s."
//!   when another kernel driver holds the GPU: nouveau, vfio-pci, or from Linux 7.0's
//!   CONFIG_NOVA_CORE the nova_core driver (beclab/Olares#3963: Ubuntu 26.04 needed nova_core
//!   blacklisted beside nouveau).
//! - The module's build under DKMS or the installer, failing in the driver's own source
//!   (`nvidia/nv-dmabuf.c:844:9: error: implicit declaration of function …`): the kernel changed
//!   an interface this release uses (zabbly/linux#48: 575 on a 6.17 kernel).
//! - The GPU operator's driver container (nvidia-driver, its `_unload_driver`): "Could not
//!   unload NVIDIA driver kernel modules, driver is in use" where the host has its own driver
//!   loaded (NVIDIA/gpu-operator#163: the fabric manager's meta package installed one).
//! - An application's own check of the NVENC API, in FFmpeg's manner ("Required: NVENC API
//!   13.0 / Found: 12.2 / Minimum required Nvidia driver is 570.0 or newer": jvdillon/netv, an
//!   image built against a newer NVENC API than the host's driver).
//! - CUDA's CUDA_ERROR_INVALID_IMAGE / cudaErrorInvalidKernelImage, "device kernel image is
//!   invalid": the driver cannot load the binary's kernels; nvcc's compressed fat binaries
//!   need driver 550 or newer (ollama/ollama's minimum driver change for that reason).
//! - glibc's "symbol lookup error: …: undefined symbol: cu…" for a CUDA driver API function:
//!   the host's libcuda is older than the library that calls it (Project-HAMi/HAMi#27:
//!   cuMemAllocAsync, CUDA 11.2's, against a 450 driver).
//! - Go's `exec: "nvidia-container-cli": executable file not found in $PATH` from an engine
//!   that runs the legacy CLI itself (nerdctl's --gpus, gVisor's nvproxy): containerd/nerdctl
//!   #2716, where the GPU operator had installed it under /usr/local/nvidia/toolkit.
//! - KubeVirt's admission: "GPU %s is not permitted in %s" (permittedHostDevices).
//! - Set T's: NGC images' start-up banner ("This container was built for NVIDIA Driver Release
//!   %s or later, but version %s was detected and compatibility mode is UNAVAILABLE",
//!   NVIDIA/TensorRT-LLM's issues); the vGPU guest driver's Xid 78 ("Guest driver is
//!   incompatible with host driver": the guest's GRID release older than the host's vGPU
//!   manager, Azure's NVadsA10 images); nvidia-docker 1.0's "Error: unsupported Docker version"
//!   (NVIDIA/nvidia-docker, a wrapper older than the engine); a program that dlopens the
//!   unversioned libnvidia-ml.so, which only the driver's -dev packages provide (nvml-wrapper
//!   under WSL, a miner under Unraid); docker's "The requested image's platform (%s) does not
//!   match the detected host platform" beside the NVIDIA runtime (an amd64 image on a Jetson);
//!   the device plug-in's "invalid MIG configuration" (a migStrategy the node's MIG layout does
//!   not fit); the legacy CLI's "unrecognized option" (a hook newer than the CLI it runs);
//!   Singularity's "NVIDIA binaries may not be bound with --writable" (it binds the driver's
//!   libraries but not its programs into a writable container); Apptainer's --nvccli, which
//!   sets --writable-tmpfs, against a writable overlay image ("you can't specify
//!   --writable-tmpfs with another writable overlay image").
//! - GNU ld on a CUDA library that is an empty placeholder on a Jetson (`libcublas.so: file not
//!   recognized: File truncated`): a docker build without the NVIDIA runtime as the default
//!   (dusty-nv/jetson-inference#1290).

use gpuctl_core::plugin::{EmitterRule, ObjectAt, Operation, RANK_DECISIVE, RANK_VAGUE, RULE};

use crate::explain_rules_libs::{IMAGE_LIBS, JETSON};

/// The rules.
pub(crate) const RULES: &[EmitterRule] = &[
    EmitterRule {
        emitter: "nvidia-kernel-module",
        who: "the NVIDIA kernel module",
        line: &[&["NVRM: GPU ", "is already bound to "]],
        operation: Operation::Open,
        object: ObjectAt::After("is already bound to "),
        cause: "another kernel driver ({object}) already drives the GPU, so the NVIDIA module probes none: nouveau, nova_core (Linux 7.0 kernels built with CONFIG_NOVA_CORE bind Turing and later GPUs at boot), or vfio-pci for a GPU set aside for a VM.",
        check: "'lspci -k -d 10de:' on the host names the driver in use; blacklist it ('blacklist nouveau', and 'blacklist nova_core' and 'blacklist nova_drm' on kernels that have them, in /etc/modprobe.d), rebuild the initramfs ('sudo update-initramfs -u' or 'sudo dracut -f') and reboot; or unbind vfio-pci",
        host_path: Some("/sys/module/nvidia"),
        // Above "No NVIDIA devices probed", which follows it and only repeats the outcome.
        rank: RANK_DECISIVE - 1,
        ..RULE
    },
    EmitterRule {
        emitter: "nvidia-kernel-module",
        who: "the NVIDIA kernel module's build",
        line: &[
            &["nvidia", ".c:", "error: implicit declaration of function"],
            &["nvidia", ".c:", "error: too few arguments to function"],
            &["nvidia", ".c:", "error: too many arguments to function"],
            &["nvidia", ".c:", "has no member named"],
            &["nvidia", ".c:", "error: unknown type name"],
        ],
        operation: Operation::Install,
        object: ObjectAt::Is("the nvidia kernel module"),
        cause: "the NVIDIA module's source does not compile against this kernel: the kernel changed an interface the driver release uses, so the release is older than the kernel (a new mainline, a distribution's or a vendor's recent kernel) and DKMS or the installer cannot build it.",
        check: "'gpuctl requirement' and the driver's release notes name the kernels a release supports; install a newer driver release (or the distribution's packaged one, patched for its kernel), or boot a kernel the installed release supports; '/var/lib/dkms/nvidia/*/build/make.log' has the whole error",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "nvidia-driver-container",
        who: "the GPU operator's driver container",
        line: &[&["Could not unload NVIDIA driver kernel modules, driver is in use"]],
        operation: Operation::Install,
        object: ObjectAt::Is("the host's NVIDIA kernel modules"),
        cause: "the driver container cannot replace the NVIDIA modules already loaded on the host: the host has a driver of its own (installed by a package, including one another package pulled in, such as the fabric manager's cuda-drivers-fabricmanager meta package, or shipped by the OS image), or a host process holds the GPU (nvidia-persistenced, a display server, a monitoring agent).",
        check: "'lsmod | grep nvidia' and 'dpkg -l | grep -i nvidia' (or 'rpm -qa | grep -i nvidia') on the node; remove the host's driver packages (install the standalone nvidia-fabricmanager-<branch> package instead of the meta package) and reboot, or keep the host's driver and set the operator's driver.enabled=false",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "nvenc",
        who: "NVENC (the driver's video encoder)",
        // FFmpeg prints "The minimum required Nvidia driver for nvenc is %s or newer" after
        // a library it could not load too (libnvidia-encode not mounted), and its version
        // check's own line is the ffmpeg rule's: an application's "Minimum required Nvidia
        // driver is" alone says the driver is too old.
        line: &[&["Minimum required Nvidia driver is", "or newer"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the NVENC API"),
        cause: "the program (FFmpeg, or the image's build of it) was built against a newer NVENC API than the host's driver provides: the driver is older than the release the line names (NVENC API 13 needs 570, 12.2 needs 550, 12.1 needs 530).",
        check: "'nvidia-smi' on the host names the driver; upgrade it to the release the line names, or use an image built against an older NVENC API (nv-codec-headers of the driver's release)",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "cuda",
        who: "the CUDA runtime",
        line: &[
            &["device kernel image is invalid"],
            &["CUDA_ERROR_INVALID_IMAGE"],
            &["cudaErrorInvalidKernelImage"],
        ],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the program's GPU code"),
        cause: "the driver could not load the program's GPU code: the code was built by a CUDA newer than the host's driver understands (nvcc's compressed fat binaries need driver 550 or newer; PTX of a newer ISA), or the binary is damaged.",
        check: "'nvidia-smi' on the host names the driver and the newest CUDA it supports; upgrade the driver to at least the program's CUDA release (550 or newer for compressed fat binaries), or use the program's build for the driver's CUDA",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "dynamic-loader",
        who: "the dynamic loader",
        line: &[
            &["undefined symbol: cuMem"],
            &["undefined symbol: cuDevice"],
            &["undefined symbol: cuCtx"],
            &["undefined symbol: cuStream"],
            &["undefined symbol: cuGraph"],
            &["undefined symbol: cuLaunch"],
            &["undefined symbol: cuModule"],
            &["undefined symbol: cuLibrary"],
            &["undefined symbol: cuKernel"],
            &["undefined symbol: cuGetProcAddress"],
            &["undefined symbol: cuEvent"],
            &["undefined symbol: cuFunc"],
            &["undefined symbol: cuPointer"],
            &["undefined symbol: cuImport"],
            &["undefined symbol: cuExternal"],
        ],
        operation: Operation::MatchVersion,
        object: ObjectAt::After("undefined symbol: "),
        cause: "a library calls the CUDA driver function {object}, which the host driver's libcuda does not have: the driver is older than the CUDA that library was built for (an injected library such as a vGPU-sharing hook, or the program itself), or an older libcuda (a copy or a stub in the image) is loaded before the driver's.",
        check: "'nvidia-smi' on the host names the driver and the newest CUDA it supports; upgrade the driver, or use the library's build for that CUDA; 'ldd' on the program shows which libcuda it loads",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "docker",
        who: "the engine running the legacy CLI",
        line: &[&["exec: \"nvidia-container-cli\": executable file not found"]],
        // The legacy hook's own lookup is the hook's rule.
        unless: &["couldn't find binary"],
        operation: Operation::FindRuntime,
        object: ObjectAt::Is("nvidia-container-cli"),
        cause: "the engine runs nvidia-container-cli itself for the GPU request (nerdctl's and ctr's --gpus, gVisor's runsc with nvproxy) and none is on its PATH: the toolkit is not installed on this host, or it is installed where that PATH does not reach (the GPU operator installs it under /usr/local/nvidia/toolkit and the driver under /run/nvidia/driver).",
        check: "'command -v nvidia-container-cli' on the host; install libnvidia-container-tools, or add the operator's /usr/local/nvidia/toolkit to the engine's PATH (and its driver root to the toolkit's config), or request the GPU by CDI instead",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "kubevirt",
        who: "KubeVirt's admission",
        line: &[
            &["GPU ", "is not permitted in "],
            &["HostDevice ", "is not permitted in "],
        ],
        operation: Operation::Allocate,
        object: ObjectAt::After("GPU "),
        cause: "KubeVirt admits a GPU for a VM only if its resource name ({object}) is listed in the KubeVirt CR's spec.configuration.permittedHostDevices (pciHostDevices or mediatedDevices) with the GPU feature gate on; here it is not, or a separate kubevirt-config ConfigMap (from an older example) overrides the CR's configuration.",
        check: "'kubectl get kubevirt -n kubevirt -o yaml' must list the resource name under permittedHostDevices; remove a kubevirt-config ConfigMap that overrides it and put the feature gates in the CR",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "linker",
        who: "the linker (ld)",
        line: &[&["file not recognized"], &["file format not recognized"]],
        needs: JETSON,
        operation: Operation::LoadLibrary,
        object: ObjectAt::Named,
        objects: IMAGE_LIBS,
        cause: "on a Jetson the NVIDIA runtime mounts JetPack's CUDA libraries, {object} among them, from the host; in the image they are empty placeholders, and this build step ran without that runtime (docker build uses it only when it is docker's default runtime).",
        check: "set '\"default-runtime\": \"nvidia\"' in /etc/docker/daemon.json and restart docker before building; 'ls /etc/nvidia-container-runtime/host-files-for-container.d' lists what it mounts",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "cuda",
        who: "the image's start-up check",
        line: &[&[
            "This container was built for NVIDIA Driver Release",
            "or later",
        ]],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the host's NVIDIA driver"),
        cause: "the image (an NGC container) needs a newer host driver than the one it found, and CUDA's forward compatibility cannot bridge the gap: the GPU is not a data-center one that takes it (GeForce, RTX workstation), or the driver's branch is not one the image's compat package covers.",
        check: "'nvidia-smi' on the host names the driver; upgrade it to at least the release the line names, or use the image's release built for the host's driver (NGC's support matrix lists each release's minimum driver)",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "nvidia-kernel-module",
        who: "the NVIDIA vGPU guest driver",
        line: &[
            &["Guest driver is incompatible with host driver"],
            &["NVRM: Xid", "): 78,"],
        ],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the host's vGPU manager"),
        cause: "the VM's vGPU guest driver is not compatible with the host's vGPU manager (Xid 78): the guest's GRID release is older (or newer) than the host's vGPU software supports, as when a cloud VM image pins a guest driver and the provider upgrades the hosts; the GPU does not start in the VM and no container in it can use it.",
        check: "install the guest driver of the vGPU release the host runs (the cloud provider's documentation names it: Azure's NVIDIA GPU driver extension, GCP's and AWS's GRID driver pages), then 'nvidia-smi' in the VM",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "nvidia-docker",
        who: "nvidia-docker 1.0",
        line: &[&["nvidia-docker", "Error: unsupported Docker version"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the docker release"),
        cause: "the nvidia-docker 1.0 wrapper does not know this docker release (its version check predates it): the wrapper is older than the engine; nvidia-docker 1.0 is long retired, and docker reaches the GPU through the NVIDIA Container Toolkit ('--gpus') instead.",
        check: "remove nvidia-docker 1.0 and install the NVIDIA Container Toolkit ('sudo nvidia-ctk runtime configure --runtime=docker', then 'docker run --gpus all ...'), or upgrade the wrapper to a release that knows the engine",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "dynamic-loader",
        who: "the dynamic loader",
        line: &[
            &["libnvidia-ml.so: cannot open shared object"],
            &["libcuda.so: cannot open shared object"],
        ],
        operation: Operation::LoadLibrary,
        object: ObjectAt::Before(": cannot open shared object"),
        cause: "the program loads the unversioned {object}, a development link that only the driver's -dev packages (libnvidia-ml-dev, the CUDA toolkit's stubs) provide: a container given the GPU, and WSL's /usr/lib/wsl/lib, have the versioned {object}.1 only, so the program must load that name (or the link must be made in the image); if the container was not given the GPU, it has neither.",
        check: "'ls -l /usr/lib/x86_64-linux-gnu/{object}*' in the container (or /usr/lib/wsl/lib under WSL); point the program at {object}.1 (its library-path setting), or add the link in the image ('ln -s {object}.1 {object}', or install libnvidia-ml-dev); give the container the GPU if .1 is missing too",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "docker",
        who: "the docker daemon",
        line: &[&[
            "The requested image's platform",
            "does not match the detected host platform",
        ]],
        needs: &["nvidia", "NVIDIA", "hook", "cuda", "CUDA"],
        operation: Operation::MatchVersion,
        object: ObjectAt::Is("the image's platform"),
        cause: "the image is built for another platform than the host (an amd64 image on an arm64 Jetson, or the reverse): its programs cannot run here, and with the NVIDIA runtime its hook fails on it before any GPU is involved.",
        check: "use an image built for the host's platform (NVIDIA's l4t images, or the multi-arch CUDA images, on a Jetson), or build it with '--platform linux/arm64'; 'docker image inspect --format {{.Architecture}} <image>' shows what it is",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "device-plugin",
        who: "NVIDIA's device plugin",
        line: &[&["invalid MIG configuration"]],
        operation: Operation::Allocate,
        object: ObjectAt::Is("the node's MIG devices"),
        cause: "the plug-in's MIG strategy does not fit the node's MIG layout: migStrategy=single needs every GPU in MIG mode with one profile throughout (or none in MIG mode), and a node with mixed profiles or MIG and whole GPUs needs migStrategy=mixed.",
        check: "'nvidia-smi -L' on the node lists the MIG devices; set the plug-in's migStrategy (Helm's migStrategy, or the operator's mig.strategy) to mixed for such a layout, or make the layout uniform ('nvidia-mig-parted')",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "nvidia-container-cli",
        who: "nvidia-container-cli (the legacy hook)",
        line: &[&["nvidia-container-cli", "unrecognized option"]],
        operation: Operation::MatchVersion,
        object: ObjectAt::After("unrecognized option "),
        cause: "the runtime hook passed nvidia-container-cli an option ({object}) it does not know: the hook (nvidia-container-runtime-hook, nvidia-container-toolkit) is newer than the libnvidia-container it runs, as when one package was upgraded without the other.",
        check: "'nvidia-container-cli --version' and the toolkit's version on the host; upgrade libnvidia-container1, libnvidia-container-tools and nvidia-container-toolkit together, to one release",
        rank: RANK_VAGUE,
        ..RULE
    },
    EmitterRule {
        emitter: "singularity",
        who: "Singularity (Apptainer)",
        line: &[&["NVIDIA binaries may not be bound with --writable"]],
        operation: Operation::Mount,
        object: ObjectAt::Is("the driver's programs"),
        cause: "with --writable Singularity (and Apptainer) bind the NVIDIA driver's libraries into the container but not its programs (nvidia-smi, nvidia-debugdump): a writable container would keep them, so they are left out by design; CUDA works, nvidia-smi is not there.",
        check: "run nvidia-smi from a container started without --writable (or with --writable-tmpfs), or install the driver's utilities of the host's release in the writable image",
        rank: RANK_DECISIVE,
        ..RULE
    },
    EmitterRule {
        emitter: "singularity",
        who: "Apptainer",
        line: &[&["you can't specify --writable-tmpfs with another writable overlay image"]],
        needs: &["nvidia-container-cli", "--nvccli", "nvccli"],
        operation: Operation::Mount,
        object: ObjectAt::Is("the container's overlay"),
        cause: "--nvccli makes Apptainer set --writable-tmpfs (nvidia-container-cli writes the driver's files into the container), and Apptainer refuses that beside a writable overlay image given with --overlay, so the container does not start.",
        check: "mount the overlay read-only ('--overlay image.img:ro'), or use --nv (Apptainer's own binding, which needs no writable layer) instead of --nvccli",
        rank: RANK_DECISIVE,
        ..RULE
    },
];
