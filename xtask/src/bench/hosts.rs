//! The benchmark hosts: N NVIDIA GPUs behind a CDI spec shaped like `nvidia-ctk cdi generate
//! --device-name-strategy=index`'s (a device per GPU, then `all`; the shared edits of a real
//! driver install),
//! and 2 AMD GPUs on the raw tier (`/dev/kfd` and their render nodes). With 8 GPUs the spec is
//! about 19 KB, as on the host issue 9 measured.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// The two spec formats a host can carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecFormat {
    /// `/etc/cdi/nvidia.yaml`
    Yaml,
    /// `/etc/cdi/nvidia.json`, compact, as `nvidia-ctk --format json` writes it.
    Json,
}

impl SpecFormat {
    /// The file extension.
    pub fn ext(self) -> &'static str {
        match self {
            SpecFormat::Yaml => "yaml",
            SpecFormat::Json => "json",
        }
    }
}

/// Libraries a driver install mounts (the shared `containerEdits.mounts`).
const LIBS: &[&str] = &[
    "libEGL_nvidia.so",
    "libGLESv1_CM_nvidia.so",
    "libGLESv2_nvidia.so",
    "libGLX_nvidia.so",
    "libcuda.so",
    "libcudadebugger.so",
    "libnvcuvid.so",
    "libnvidia-allocator.so",
    "libnvidia-cfg.so",
    "libnvidia-eglcore.so",
    "libnvidia-encode.so",
    "libnvidia-fbc.so",
    "libnvidia-glcore.so",
    "libnvidia-glsi.so",
    "libnvidia-glvkspirv.so",
    "libnvidia-gpucomp.so",
    "libnvidia-ml.so",
    "libnvidia-ngx.so",
    "libnvidia-nvvm.so",
    "libnvidia-opencl.so",
    "libnvidia-opticalflow.so",
    "libnvidia-pkcs11-openssl3.so",
    "libnvidia-ptxjitcompiler.so",
    "libnvidia-rtcore.so",
    "libnvidia-tls.so",
    "libnvoptix.so",
    "libnvidia-api.so",
    "libnvidia-sandboxutils.so",
    "libnvidia-vksc-core.so",
    "libnvidia-gtk3.so",
    "libnvidia-wayland-client.so",
    "libnvidia-pkcs11.so",
    "libnvidia-present.so",
    "libnvidia-vulkan-producer.so",
    "libnvidia-fatbinaryloader.so",
    "libnvidia-container.so",
    "libnvidia-container-go.so",
    "libnvidia-egl-gbm.so",
    "libnvidia-egl-wayland.so",
];
const BINS: &[&str] = &[
    "nvidia-smi",
    "nvidia-debugdump",
    "nvidia-persistenced",
    "nvidia-cuda-mps-control",
    "nvidia-cuda-mps-server",
];
/// Other files a driver install mounts (configuration, firmware, X and Vulkan pieces).
const FILES: &[&str] = &[
    "/run/nvidia-persistenced/socket",
    "/usr/share/vulkan/icd.d/nvidia_icd.json",
    "/usr/share/vulkan/implicit_layer.d/nvidia_layers.json",
    "/usr/share/glvnd/egl_vendor.d/10_nvidia.json",
    "/usr/share/egl/egl_external_platform.d/15_nvidia_gbm.json",
    "/usr/share/egl/egl_external_platform.d/10_nvidia_wayland.json",
    "/usr/lib/x86_64-linux-gnu/vdpau/libvdpau_nvidia.so.{DRIVER}",
    "/usr/lib/x86_64-linux-gnu/nvidia/xorg/libglxserver_nvidia.so.{DRIVER}",
    "/usr/lib/x86_64-linux-gnu/nvidia/xorg/nvidia_drv.so",
    "/lib/firmware/nvidia/{DRIVER}/gsp_ga10x.bin",
    "/lib/firmware/nvidia/{DRIVER}/gsp_tu10x.bin",
    "/etc/nvidia/nvidia-application-profiles-rc.d",
    "/usr/share/nvidia/nvidia-application-profiles-{DRIVER}-rc",
    "/usr/share/nvidia/nvidia-application-profiles-{DRIVER}-key-documentation",
    "/usr/lib/x86_64-linux-gnu/gbm/nvidia-drm_gbm.so",
    "/usr/lib/x86_64-linux-gnu/libnvidia-egl-xcb.so.1",
    "/usr/lib/x86_64-linux-gnu/libnvidia-egl-xlib.so.1",
];
const DRIVER: &str = "580.95.05";

/// The PCI address of NVIDIA GPU `i` (unique up to 65,536 GPUs).
pub fn nvidia_addr(i: usize) -> String {
    format!(
        "{:04x}:{:02x}:{:02x}.0",
        i / (32 * 224),
        0x10 + i / 32 % 224,
        i % 32
    )
}

/// A JSON-quoted string (the names and paths here need no escapes beyond quotes).
fn q(s: &str) -> String {
    format!("\"{s}\"")
}

/// One mount, as JSON.
fn mount(path: &str) -> String {
    format!(
        r#"{{"hostPath":{p},"containerPath":{p},"options":["ro","nosuid","nodev","bind"]}}"#,
        p = q(path)
    )
}

fn symlink_hook(links: &[String]) -> String {
    let mut args = vec![q("nvidia-cdi-hook"), q("create-symlinks")];
    for l in links {
        args.push(q("--link"));
        args.push(q(l));
    }
    format!(
        r#"{{"hookName":"createContainer","path":"/usr/bin/nvidia-cdi-hook","args":[{}],"env":["NVIDIA_CTK_DEBUG=false"]}}"#,
        args.join(",")
    )
}

/// The device entry of GPU `i` under `name`.
fn device(name: &str, i: usize) -> String {
    let addr = nvidia_addr(i);
    let (card, render) = (i + 1, 128 + i);
    format!(
        r#"{{"name":{},"containerEdits":{{"deviceNodes":[{{"path":"/dev/nvidia{i}"}},{{"path":"/dev/dri/card{card}"}},{{"path":"/dev/dri/renderD{render}"}}],"hooks":[{}]}}}}"#,
        q(name),
        symlink_hook(&[
            format!("../card{card}::/dev/dri/by-path/pci-{addr}-card"),
            format!("../renderD{render}::/dev/dri/by-path/pci-{addr}-render"),
        ])
    )
}

/// The whole spec as JSON (compact). YAML is the same document, written by `to_yaml`.
pub fn spec_json(gpus: usize) -> String {
    let mut devices = Vec::with_capacity(2 * gpus + 1);
    for i in 0..gpus {
        devices.push(device(&i.to_string(), i));
    }
    let all_nodes: Vec<String> = (0..gpus)
        .map(|i| format!(r#"{{"path":"/dev/nvidia{i}"}}"#))
        .collect();
    devices.push(format!(
        r#"{{"name":"all","containerEdits":{{"deviceNodes":[{}]}}}}"#,
        all_nodes.join(",")
    ));
    let mut mounts: Vec<String> = LIBS
        .iter()
        .map(|l| mount(&format!("/usr/lib/x86_64-linux-gnu/{l}.{DRIVER}")))
        .collect();
    mounts.extend(BINS.iter().map(|b| mount(&format!("/usr/bin/{b}"))));
    mounts.extend(FILES.iter().map(|f| mount(&f.replace("{DRIVER}", DRIVER))));
    let hooks = [
        symlink_hook(&["libcuda.so.1::/usr/lib/x86_64-linux-gnu/libcuda.so".to_string()]),
        r#"{"hookName":"createContainer","path":"/usr/bin/nvidia-cdi-hook","args":["nvidia-cdi-hook","update-ldcache","--folder","/usr/lib/x86_64-linux-gnu"],"env":["NVIDIA_CTK_DEBUG=false"]}"#.to_string(),
    ];
    format!(
        r#"{{"cdiVersion":"0.5.0","kind":"nvidia.com/gpu","devices":[{}],"containerEdits":{{"env":["NVIDIA_VISIBLE_DEVICES=void"],"deviceNodes":[{{"path":"/dev/nvidiactl"}},{{"path":"/dev/nvidia-uvm"}},{{"path":"/dev/nvidia-uvm-tools"}},{{"path":"/dev/nvidia-modeset"}}],"hooks":[{}],"mounts":[{}]}}}}"#,
        devices.join(","),
        hooks.join(","),
        mounts.join(",")
    )
}

/// The spec, in `format`.
pub fn spec(gpus: usize, format: SpecFormat) -> Result<String, String> {
    match format {
        SpecFormat::Json => Ok(spec_json(gpus)),
        SpecFormat::Yaml => spec_yaml(gpus),
    }
}

/// How many GPUs make a spec of about `bytes` in `format` (the size grows linearly).
pub fn gpus_for_bytes(format: SpecFormat, bytes: usize) -> Result<usize, String> {
    let (small, large) = (spec(8, format)?.len(), spec(16, format)?.len());
    let per_gpu = (large - small) / 8;
    Ok(8 + bytes.saturating_sub(small) / per_gpu.max(1))
}

/// The spec in YAML block style, as nvidia-ctk writes it.
pub fn spec_yaml(gpus: usize) -> Result<String, String> {
    let value: serde_json::Value =
        serde_json::from_str(&spec_json(gpus)).map_err(|e| format!("bench spec: {e}"))?;
    let mut out = String::from("---\n");
    yaml(&value, 0, &mut out);
    Ok(out)
}

fn scalar(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) if s.parse::<f64>().is_ok() || s.contains(": ") => q(s),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A small block-style YAML writer for the bench spec's shapes (objects, arrays, strings).
fn yaml(v: &serde_json::Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match v {
        serde_json::Value::Object(map) => {
            for (k, val) in map {
                match val {
                    serde_json::Value::Object(_) | serde_json::Value::Array(_) => {
                        let _ = writeln!(out, "{pad}{k}:");
                        yaml(val, indent + 2, out);
                    }
                    _ => {
                        let _ = writeln!(out, "{pad}{k}: {}", scalar(val));
                    }
                }
            }
        }
        serde_json::Value::Array(items) => {
            for item in items {
                match item {
                    serde_json::Value::Object(_) => {
                        let mut inner = String::new();
                        yaml(item, indent + 2, &mut inner);
                        let inner = inner.trim_start();
                        let _ = write!(out, "{pad}- {inner}");
                    }
                    _ => {
                        let _ = writeln!(out, "{pad}- {}", scalar(item));
                    }
                }
            }
        }
        other => {
            let _ = writeln!(out, "{pad}{}", scalar(other));
        }
    }
}

fn write(root: &Path, host_path: &str, content: &str) -> Result<(), String> {
    let p = root.join(host_path.trim_start_matches('/'));
    if let Some(parent) = p.parent() {
        fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    fs::write(&p, content).map_err(|e| format!("cannot write {}: {e}", p.display()))
}

fn link(root: &Path, host_path: &str, target: &str) -> Result<(), String> {
    let p = root.join(host_path.trim_start_matches('/'));
    if let Some(parent) = p.parent() {
        fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    let _ = fs::remove_file(&p);
    std::os::unix::fs::symlink(target, &p).map_err(|e| format!("cannot link {}: {e}", p.display()))
}

fn pci(root: &Path, addr: &str, vendor: u16, device: u16, class: u32) -> Result<(), String> {
    let dir = format!("/sys/devices/pci0000:00/{addr}");
    write(root, &format!("{dir}/vendor"), &format!("0x{vendor:04x}\n"))?;
    write(root, &format!("{dir}/device"), &format!("0x{device:04x}\n"))?;
    write(root, &format!("{dir}/class"), &format!("0x{class:06x}\n"))?;
    link(
        root,
        &format!("/sys/bus/pci/devices/{addr}"),
        &format!("../../../devices/pci0000:00/{addr}"),
    )
}

/// Builds (or rebuilds) the host with `gpus` NVIDIA GPUs under `dir` and returns its root.
pub fn build(dir: &Path, gpus: usize, format: SpecFormat) -> Result<PathBuf, String> {
    let root = dir.join(format!("nvidia-{gpus}-{}", format.ext()));
    if root.exists() {
        fs::remove_dir_all(&root).map_err(|e| format!("cannot clear {}: {e}", root.display()))?;
    }
    for n in [
        "nvidiactl",
        "nvidia-uvm",
        "nvidia-uvm-tools",
        "nvidia-modeset",
        "kfd",
    ] {
        write(&root, &format!("/dev/{n}"), "")?;
    }
    write(
        &root,
        "/proc/driver/nvidia/version",
        &format!("NVRM version: NVIDIA UNIX x86_64 Kernel Module  {DRIVER}\n"),
    )?;
    for i in 0..gpus {
        let addr = nvidia_addr(i);
        pci(&root, &addr, 0x10de, 0x2901, 0x030200)?;
        write(&root, &format!("/dev/nvidia{i}"), "")?;
        write(
            &root,
            &format!("/proc/driver/nvidia/gpus/{addr}/information"),
            &format!("Model: \t\t NVIDIA B200\nBus Location: \t {addr}\nDevice Minor: \t {i}\n"),
        )?;
    }
    for (k, addr) in ["0000:f1:00.0", "0000:f2:00.0"].iter().enumerate() {
        pci(&root, addr, 0x1002, 0x74a1, 0x038000)?;
        let name = format!("renderD{}", 250 + k);
        let dev_dir = format!("/sys/devices/pci0000:00/{addr}");
        write(&root, &format!("{dev_dir}/drm/{name}/dev"), "226:250\n")?;
        link(
            &root,
            &format!("{dev_dir}/drm/{name}/device"),
            &format!("../../../{addr}"),
        )?;
        link(
            &root,
            &format!("/sys/class/drm/{name}"),
            &format!("../../devices/pci0000:00/{addr}/drm/{name}"),
        )?;
        write(&root, &format!("/dev/dri/{name}"), "")?;
        link(
            &root,
            &format!("/dev/dri/by-path/pci-{addr}-render"),
            &format!("../{name}"),
        )?;
    }
    let spec = spec(gpus, format)?;
    write(&root, &format!("/etc/cdi/nvidia.{}", format.ext()), &spec)?;
    Ok(root)
}
