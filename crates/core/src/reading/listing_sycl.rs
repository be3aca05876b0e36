//! Issue 31, round 8: a `sycl-ls` listing that names no GPU.
//!
//! `sycl-ls` (oneAPI's DPC++ runtime, intel/llvm sycl/tools/sycl-ls) prints one line per
//! device every SYCL backend offers: `[level_zero:gpu:0] Intel(R) Level-Zero, …` (2023 and
//! later, `ext_oneapi_level_zero` for a time), `[opencl:gpu:3] Intel(R) OpenCL Graphics, …`,
//! and before 2023 `[opencl:0] GPU : Intel(R) OpenCL HD Graphics …`. A listing of CPU and FPGA
//! emulation devices only says that no backend offers a GPU: the image lacks Intel's GPU
//! runtime for Level Zero and OpenCL (intel/compute-runtime#477: only the OpenCL CPU runtime
//! installed), the container has no render node, or the runtime does not drive this GPU on
//! this kernel (intel/compute-runtime#710: NEO 24.05 on Linux 6.8, where the same host's
//! listing on 6.5 had the GPU). A listing that names a GPU says nothing.

use super::{Operation, Owner, RANK_REASON, Reading};

/// The readings of every `sycl-ls` listing that names devices but no GPU.
pub(crate) fn no_gpu(text: &str) -> Vec<Reading> {
    if !text.contains("sycl-ls") {
        return Vec::new();
    }
    let lines: Vec<&str> = text.lines().collect();
    let listings: Vec<(usize, Vec<&str>)> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains("sycl-ls") && !is_device(l))
        .map(|(i, _)| {
            let devices: Vec<&str> = lines[i + 1..]
                .iter()
                .map(|l| l.trim())
                .skip_while(|l| l.is_empty() || l.starts_with("```"))
                .take_while(|l| is_device(l))
                .take(64)
                .collect();
            (i, devices)
        })
        .filter(|(_, d)| !d.is_empty())
        .collect();
    let any_gpu = listings.iter().any(|(_, d)| d.iter().any(|l| gpu(l)));
    listings
        .iter()
        .filter(|(_, d)| !d.iter().any(|l| gpu(l)))
        .map(|(i, _)| reading(i + 1, any_gpu))
        .collect()
}

/// A device line of either shape: `[backend:type:n]` or `[backend:n] TYPE : …`.
fn is_device(line: &str) -> bool {
    let t = line.trim();
    let Some(rest) = t.strip_prefix('[') else {
        return false;
    };
    let Some((head, _)) = rest.split_once(']') else {
        return false;
    };
    let mut parts = head.split(':');
    let backend = parts.next().unwrap_or("");
    let backends = [
        "opencl",
        "level_zero",
        "ext_oneapi_level_zero",
        "cuda",
        "ext_oneapi_cuda",
        "hip",
        "ext_oneapi_hip",
        "host",
        "native_cpu",
    ];
    backends.contains(&backend) && parts.next().is_some()
}

/// Whether a device line names a GPU (`[opencl:gpu:3]`, `[opencl:0] GPU : …`).
fn gpu(line: &str) -> bool {
    let t = line.trim();
    let head = t.split(']').next().unwrap_or("");
    head.split(':').nth(1) == Some("gpu")
        || t.split(']')
            .nth(1)
            .is_some_and(|r| r.trim_start().starts_with("GPU"))
}

fn reading(line: usize, another_has_one: bool) -> Reading {
    let mut cause = "sycl-ls lists devices but no GPU, so no SYCL backend offers one: the image lacks the GPU runtime of Level Zero and OpenCL (Intel's compute runtime: intel-level-zero-gpu or libze-intel-gpu1, intel-opencl-icd; an image with only the OpenCL CPU runtime lists the CPU and the FPGA emulator), the container has no render node (/dev/dri not given, or its group did not reach the container), or the compute runtime installed does not drive this GPU on this kernel (a release older than the GPU or than the kernel's GPU interface).".to_string();
    if another_has_one {
        cause.push_str(" Another listing in the text names the GPU: what differs between the two (the kernel, the compute runtime's release, the container) is where to look first; a compute runtime release that predates the newer kernel is a known cause.");
    }
    Reading {
        line,
        emitter: "sycl-ls",
        operation: Operation::FindDevice,
        object: Some("a GPU".to_string()),
        cause,
        check: "in the container 'ls -l /dev/dri' (a renderD node its user may open) and 'dpkg -l | grep -E \"level-zero|opencl-icd|libze\"' (or rpm -qa); 'SYCL_UR_TRACE=1 sycl-ls' (SYCL_PI_TRACE=1 before 2024) says why a backend offers nothing; install Intel's compute runtime release that supports this GPU and kernel".to_string(),
        owner: Owner::Stack,
        rank: RANK_REASON,
        who: "sycl-ls",
        host_path: None,
        host_mount: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::cpu_only_old(
        "$ sycl-ls\n[opencl:0] CPU : Intel(R) OpenCL 3.0 [2021.12.9.0.24_005321]\n[host:0] HOST: SYCL host platform 1.2 [1.2]",
        1
    )]
    #[case::gpu_new(
        "sycl-ls\n[level_zero:gpu:0] Intel(R) Level-Zero, Intel(R) Arc(TM) A770 Graphics 1.3 [1.3.26241]",
        0
    )]
    #[case::gpu_old(
        "$ sycl-ls\n[opencl:0] GPU : Intel(R) OpenCL HD Graphics 3.0 [22.43.24595.35]",
        0
    )]
    #[case::fenced(
        "sycl-ls\n```\n[opencl:cpu:0] Intel(R) OpenCL, Intel(R) Core(TM) i7 OpenCL 3.0 [2023.16.12]\n```",
        1
    )]
    #[case::no_output("$ sycl-ls\n$ echo done", 0)]
    #[case::word_only("the sycl-ls tool lists devices", 0)]
    fn listings(#[case] text: &str, #[case] want: usize) {
        assert_eq!(no_gpu(text).len(), want, "{text}");
    }

    #[test]
    fn a_second_listing_with_the_gpu_is_named() {
        let text = "sycl-ls\n[opencl:gpu:3] Intel(R) OpenCL Graphics, Intel(R) Iris(R) Xe Graphics OpenCL 3.0 NEO [24.05.28454.6]\nsycl-ls\n[opencl:cpu:1] Intel(R) OpenCL, 11th Gen Intel(R) Core(TM) i7 OpenCL 3.0 [2023.16.12]";
        let r = no_gpu(text);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].line, 3);
        assert!(
            r[0].cause
                .contains("Another listing in the text names the GPU")
        );
    }
}
