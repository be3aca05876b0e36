use super::*;
use crate::check::CharNode;

#[test]
fn detect_json() {
    let v: Value = serde_json::from_str(
        r#"{"vendors":[{"vendor":"nvidia","usable":true,"tier":"cdi","reason":"CDI","devices":[{"index":0},{"index":1}]},
            {"vendor":"amd","usable":false,"tier":null,"reason":"no AMD GPU","devices":[]}],"warnings":[]}"#,
    )
    .unwrap_or(Value::Null);
    let d = detected(&v);
    assert_eq!(d.len(), 2);
    assert_eq!(
        (d[0].usable, d[0].tier.as_str(), d[0].devices),
        (true, "cdi", 2)
    );
    assert_eq!((d[1].usable, d[1].tier.as_str()), (false, "-"));
    assert!(detected(&Value::Null).is_empty());
}

fn report(nodes: &[(&str, u32, u32)], tool: Option<(&str, &str, i32)>) -> ContainerReport {
    ContainerReport {
        chars: nodes
            .iter()
            .map(|(p, a, b)| CharNode::new(p, *a, *b))
            .collect(),
        tool: tool.map(|(n, o, c)| ToolRun {
            name: n.to_string(),
            output: o.to_string(),
            code: Some(c),
        }),
        complete: true,
        ..Default::default()
    }
}

#[test]
fn nvidia_counts_gpu_nodes_only() {
    let r = report(
        &[
            ("/dev/nvidia0", 195, 0),
            ("/dev/nvidiactl", 195, 255),
            ("/dev/nvidia-uvm", 510, 0),
        ],
        Some(("nvidia-smi", "GPU 0: NVIDIA H200 (UUID: GPU-x)\n", 0)),
    );
    assert_eq!(nodes_seen("nvidia", &r), 1);
    assert!(judge("nvidia", 1, &r).is_empty());
    assert_eq!(judge("nvidia", 2, &r).len(), 2);
}

#[test]
fn amd_needs_kfd_and_a_working_tool() {
    let r = report(
        &[("/dev/dri/renderD128", 226, 128)],
        Some(("rocm-smi", "boom", 1)),
    );
    let p = judge("amd", 1, &r);
    assert_eq!(p.len(), 2, "{p:?}");
}

#[test]
fn a_tool_the_image_cannot_run_is_not_a_failure() {
    let r = report(
        &[("/dev/nvidia0", 195, 0)],
        Some(("nvidia-smi", "sh: nvidia-smi: not found\n", 127)),
    );
    assert!(judge("nvidia", 1, &r).is_empty());
}

#[test]
fn clinfo_devices() {
    let t = ToolRun {
        name: "clinfo".to_string(),
        output: "Platform #0: Intel(R) OpenCL Graphics\n `-- Device #0: Intel(R) Arc(TM) A380 Graphics\n".to_string(),
        code: Some(0),
    };
    assert_eq!(tool_count(&t), Some(1));
}

#[test]
fn script_runs_the_tool_only_when_present() {
    let s = real_script("nvidia");
    assert!(s.contains("if command -v nvidia-smi >/dev/null 2>&1; then echo '@@tool nvidia-smi'; nvidia-smi -L 2>&1;"));
    assert!(s.ends_with("echo @@done\n"));
}
