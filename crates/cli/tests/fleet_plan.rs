//! `gpuctl fleet`'s roll-out plan (issue 28, items 4 and 5): the release per group and the one
//! branch that serves several, the hosts to change with what to and why, findings grouped by
//! severity and the order; over the bundled hosts' reports, a generated 200-host fleet, and a
//! NodeList made of the bundled hosts' own NFD labels, whose plan must agree with the reports'
//! wherever labels can tell.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::{Value, json};

mod fleet_hosts;
use fleet_hosts::{OPEN, PROPRIETARY, nvidia_host};

fn hosts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/hosts")
}

fn bundled() -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = fs::read_dir(hosts_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    out.sort();
    out
}

fn gpuctl(args: &[&str], root: Option<&Path>) -> (i32, String, String) {
    let mut c = cargo_bin_cmd!("gpuctl");
    if let Some(r) = root {
        c.arg("--root").arg(r);
    }
    let out = c.args(args).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn fleet(args: &[&str], paths: &[&Path]) -> (i32, String, String) {
    let mut all = vec!["fleet"];
    all.extend_from_slice(args);
    let p: Vec<&str> = paths.iter().map(|p| p.to_str().unwrap()).collect();
    all.extend(p);
    gpuctl(&all, None)
}

fn json_of(args: &[&str], paths: &[&Path]) -> Value {
    let mut a = vec!["--format", "json"];
    a.extend_from_slice(args);
    serde_json::from_str(&fleet(&a, paths).1).unwrap()
}

/// Each bundled host's report, written into `dir` as `<name>.json`.
fn bundled_reports(dir: &Path) {
    for (name, root) in bundled() {
        let (code, out, err) = gpuctl(&["-q", "report"], Some(&root));
        assert_eq!(code, 0, "{err}");
        fs::write(dir.join(format!("{name}.json")), out).unwrap();
    }
}

fn vendor<'a>(plan: &'a Value, part: &str, name: &str) -> &'a Value {
    let list = if part.is_empty() {
        &plan["vendors"]
    } else {
        &plan[part]["vendors"]
    };
    list.as_array()
        .unwrap()
        .iter()
        .find(|v| v["vendor"] == name)
        .unwrap_or_else(|| panic!("no {name} in {plan}"))
}

fn change<'a>(nv: &'a Value, host: &str) -> Option<&'a Value> {
    nv["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["host"] == host)
}

#[test]
fn the_bundled_hosts_plan_names_branch_580_for_both_groups_and_each_host_to_change() {
    let dir = tempfile::tempdir().unwrap();
    bundled_reports(dir.path());
    let (code, out, _) = fleet(&[], &[dir.path()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("  nvidia group 1 (5 hosts: cdi-broken, cdi-override, dgx-b200, nvidia-raw-only, workstation): open kernel module, driver branch 570 or newer: run open:580\n"), "{out}");
    assert!(out.contains("  nvidia group 2 (1 host: nvidia-hook-only): proprietary kernel module, driver branch 580 or older: run proprietary:580\n"), "{out}");
    assert!(out.contains("  nvidia: one release, branch 580, serves groups 1 and 2: open module for group 1 (cdi-broken and 4 more), proprietary module for group 2 (nvidia-hook-only)\n"), "{out}");
    // Severity order: unusable before doctor problems before the host off its group's stack
    // before release differences.
    let at = |s: &str| out.find(s).unwrap_or_else(|| panic!("{s:?} not in {out}"));
    let unusable = at(
        "  GPUs unusable: 1 host (cdi-override): nvidia: a CDI spec was written for another driver",
    );
    let problem = at(
        "  doctor problems: 1 host (cdi-broken): cdi-version: /etc/cdi/old.json: podman skips this spec: invalid version \"0.9.9\"\n",
    );
    let below = at(
        "  below the group's stack: 1 host (nvidia-raw-only): nvidia: its group's GPUs need open kernel module, driver branch 570 or newer: proprietary kernel module, the open one is needed; change to open:580\n",
    );
    let cosmetic = at(
        "  cosmetic (release differences): 2 hosts (cdi-broken, workstation): nvidia: it runs its group's stack at another release than the plan's; change to open:580\n",
    );
    assert!(
        unusable < problem && problem < below && below < cosmetic,
        "{out}"
    );
    assert!(out.contains("order:\n  1. GPUs unusable: cdi-override\n  2. doctor problems: cdi-broken, cdi-override\n  3. below the group's stack: nvidia-raw-only\n  4. cosmetic (release differences): cdi-broken, nvidia-hook-only, workstation\n"), "{out}");

    let plan = json_of(&[], &[dir.path()]);
    let nv = vendor(&plan, "rollout", "nvidia");
    assert_eq!(nv["covering"]["branch"], "580");
    assert_eq!(
        nv["covering"]["groups"],
        json!([{"group": 0, "spec": "open:580"}, {"group": 1, "spec": "proprietary:580"}])
    );
    assert_eq!(nv["stacks"][0]["modules"], json!(["open"]));
    assert_eq!(nv["stacks"][0]["min"], "570");
    assert_eq!(nv["stacks"][1]["max"], "580");
    // The releases named are THE verdict's: requirement says each drives its group's GPUs.
    let ids = |group: usize| -> Vec<String> {
        let g = &vendor(&plan, "", "nvidia")["groups"][group]["hosts"];
        let mut ids: Vec<String> = Vec::new();
        for h in g.as_array().unwrap() {
            let r: Value = serde_json::from_str(
                &fs::read_to_string(dir.path().join(format!("{}.json", h.as_str().unwrap())))
                    .unwrap(),
            )
            .unwrap();
            for v in r["vendors"].as_array().unwrap() {
                if v["vendor"] == "nvidia" {
                    for d in v["devices"].as_array().unwrap() {
                        ids.push(d["id"].as_str().unwrap().to_string());
                    }
                }
            }
        }
        ids.sort();
        ids.dedup();
        ids
    };
    for (group, spec) in [(0, "open:580"), (1, "proprietary:580")] {
        let mut args = vec!["requirement", "--driver", spec];
        let ids = ids(group);
        args.extend(ids.iter().map(String::as_str));
        let (code, out, _) = gpuctl(&args, None);
        assert_eq!(code, 0, "{out}");
        assert!(out.contains(&format!("driver {spec}: satisfies")), "{out}");
    }
    let raw = change(nv, "nvidia-raw-only").unwrap();
    assert_eq!(raw["severity"], "below-stack");
    assert_eq!(raw["from"], "proprietary:570.172.08");
    assert_eq!(raw["to"], "open:580");
    assert_eq!(change(nv, "cdi-override").unwrap()["severity"], "unusable");
    assert_eq!(
        change(nv, "nvidia-hook-only").unwrap()["kind"],
        "other-release"
    );
    assert!(
        change(nv, "dgx-b200").is_none(),
        "dgx-b200 runs open:580 already"
    );
    let order: Vec<&str> = plan["rollout"]["order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["severity"].as_str().unwrap())
        .collect();
    assert_eq!(
        order,
        [
            "unusable",
            "problem",
            "below-stack",
            "cosmetic",
            "unchecked",
            "warning"
        ]
    );
    // The keys the plan had before it are kept.
    for key in ["hosts", "vendors", "drift", "cuda", "skipped"] {
        assert!(plan.get(key).is_some(), "{key}");
    }
    assert_eq!(plan["rollout"]["labels_cannot_tell"], json!([]));
}

/// 200 hosts from five kinds, 40 each: B200s on open 580.95.05 (nothing to change), on open
/// 575.64.05 (a release difference), on the proprietary module (unusable: Blackwell has none);
/// Maxwells (13c2) on proprietary 580.95.05 (nothing) and 535.183.01 (a release difference).
#[test]
fn a_generated_200_host_fleet_is_planned_in_groups_not_host_by_host() {
    let kinds = [
        nvidia_host("template", 0x2901, OPEN),
        nvidia_host("template", 0x2901, &OPEN.replace("580.95.05", "575.64.05")),
        nvidia_host("template", 0x2901, PROPRIETARY),
        nvidia_host("template", 0x13c2, PROPRIETARY),
        nvidia_host(
            "template",
            0x13c2,
            &PROPRIETARY.replace("580.95.05", "535.183.01"),
        ),
    ];
    let templates: Vec<Value> = kinds
        .iter()
        .map(|t| {
            let (code, out, err) = gpuctl(&["-q", "report"], Some(t.root()));
            assert_eq!(code, 0, "{err}");
            serde_json::from_str(&out).unwrap()
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let mut of_kind: Vec<Vec<String>> = vec![Vec::new(); kinds.len()];
    for i in 0..200 {
        let name = format!("node-{i:03}");
        let mut r = templates[i % kinds.len()].clone();
        r["host"]["name"] = name.clone().into();
        r["host"]["machine_id"] = Value::Null;
        fs::write(dir.path().join(format!("{name}.json")), r.to_string()).unwrap();
        of_kind[i % kinds.len()].push(name);
    }
    let plan = json_of(&[], &[dir.path()]);
    assert_eq!(plan["hosts"], 200);
    let groups = &vendor(&plan, "", "nvidia")["groups"];
    assert_eq!(groups.as_array().unwrap().len(), 2, "{groups}");
    assert_eq!(groups[0]["hosts"].as_array().unwrap().len(), 120);
    let nv = vendor(&plan, "rollout", "nvidia");
    assert_eq!(nv["covering"]["branch"], "580");
    let hosts_of = |severity: &str, kind: &str| -> Vec<String> {
        nv["changes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["severity"] == severity && c["kind"] == kind)
            .map(|c| c["host"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(hosts_of("unusable", "driver-does-not-fit"), of_kind[2]);
    let mut cosmetic = of_kind[1].clone();
    cosmetic.extend(of_kind[4].iter().cloned());
    cosmetic.sort();
    assert_eq!(hosts_of("cosmetic", "other-release"), cosmetic);
    assert_eq!(nv["changes"].as_array().unwrap().len(), 120);
    // Grouped: one finding for the 40 unusable hosts, one per target for the rest.
    let findings = plan["rollout"]["findings"].as_array().unwrap();
    let unusable: Vec<&Value> = findings
        .iter()
        .filter(|f| f["severity"] == "unusable")
        .collect();
    assert_eq!(unusable.len(), 1);
    assert_eq!(unusable[0]["hosts"].as_array().unwrap().len(), 40);
    assert_eq!(unusable[0]["to"], "open:580");
    let to: Vec<(&str, usize)> = findings
        .iter()
        .filter(|f| f["kind"] == "other-release")
        .map(|f| {
            (
                f["to"].as_str().unwrap(),
                f["hosts"].as_array().unwrap().len(),
            )
        })
        .collect();
    assert_eq!(to, [("open:580", 40), ("proprietary:580", 40)]);
    let order = plan["rollout"]["order"].as_array().unwrap();
    assert_eq!(order[0]["severity"], "unusable");
    assert_eq!(order[0]["hosts"].as_array().unwrap().len(), 40);
    assert_eq!(order[1]["severity"], "cosmetic");
    assert_eq!(order[1]["hosts"].as_array().unwrap().len(), 80);

    let (_, out, _) = fleet(&[], &[dir.path()]);
    assert!(out.contains(&format!("  GPUs unusable: 40 hosts ({} and 32 more): nvidia: its driver does not drive its GPUs: proprietary kernel module, the open one is needed; change to open:580\n", of_kind[2][..8].join(", "))), "{out}");
    assert!(
        out.contains("  1. GPUs unusable: node-002, node-007, node-012,"),
        "{out}"
    );
    // Not one line per host: the text stays short for 200 hosts.
    assert!(out.lines().count() < 40, "{out}");
}

/// `kubectl get nodes -o json` over the bundled hosts: each node labelled with what `gpuctl
/// report --format nfd` writes on its tree.
fn node_list(kind: &str) -> Value {
    let items: Vec<Value> = bundled()
        .into_iter()
        .map(|(_, root)| {
            let (_, report, _) = gpuctl(&["-q", "report"], Some(&root));
            let name = serde_json::from_str::<Value>(&report).unwrap()["host"]["name"].clone();
            let (code, nfd, err) = gpuctl(&["-q", "report", "--format", "nfd"], Some(&root));
            assert_eq!(code, 0, "{err}");
            let labels: serde_json::Map<String, Value> = nfd
                .lines()
                .filter(|l| !l.starts_with('#') && !l.is_empty())
                .map(|l| {
                    let (k, v) = l.split_once('=').unwrap_or((l, "true"));
                    (k.to_string(), Value::from(v))
                })
                .collect();
            json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels}})
        })
        .collect();
    json!({"apiVersion": "v1", "items": items, "kind": kind, "metadata": {"resourceVersion": ""}})
}

#[test]
fn a_node_list_of_the_bundled_hosts_labels_plans_as_their_reports_do_where_labels_tell() {
    let dir = tempfile::tempdir().unwrap();
    let reports = dir.path().join("reports");
    fs::create_dir(&reports).unwrap();
    bundled_reports(&reports);
    let nodes = dir.path().join("nodes.json");
    fs::write(&nodes, node_list("List").to_string()).unwrap();
    let from_reports = json_of(&[], &[&reports]);
    let from_labels = json_of(&[], &[&nodes]);
    assert_eq!(from_labels["hosts"], from_reports["hosts"]);
    // Groups, their stacks and hosts, what divides them, conflicts: all from labels alike.
    assert_eq!(from_labels["vendors"], from_reports["vendors"]);
    let labels = &from_labels["rollout"];
    assert_eq!(labels["from_labels"].as_array().unwrap().len(), 11);
    assert!(
        labels["labels_cannot_tell"].as_array().unwrap()[0]
            .as_str()
            .unwrap()
            .starts_with("per-GPU ids")
    );
    // Doctor problems are counted on the same hosts.
    let problem_hosts = |plan: &Value| -> Vec<String> {
        let mut h: Vec<String> = plan["rollout"]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["severity"] == "problem")
            .flat_map(|f| f["hosts"].as_array().unwrap().clone())
            .map(|h| h.as_str().unwrap().to_string())
            .collect();
        h.sort();
        h.dedup();
        h
    };
    assert_eq!(problem_hosts(&from_labels), problem_hosts(&from_reports));
    // What labels cannot tell is said, not guessed: no release is named.
    let nv = vendor(&from_labels, "rollout", "nvidia");
    assert_eq!(nv["stacks"][0]["release"], Value::Null);
    assert!(
        nv["no_covering"]
            .as_str()
            .unwrap()
            .contains("labels carry none")
    );

    // The same from standard input, and as a NodeList.
    let out = cargo_bin_cmd!("gpuctl")
        .args(["fleet", "-"])
        .write_stdin(node_list("NodeList").to_string())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.starts_with("11 report(s) read\n"), "{text}");
    assert!(
        text.contains("planned from node labels (11 hosts: "),
        "{text}"
    );
    assert!(text.contains("  - why a driver does not fit"), "{text}");
}

#[test]
fn a_bad_node_list_is_named_with_its_token_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, v: &Value| {
        let p = dir.path().join(name);
        fs::write(&p, v.to_string()).unwrap();
        p
    };
    let pods = write(
        "pods.json",
        &json!({"apiVersion": "v1", "kind": "PodList", "items": []}),
    );
    let (code, _, err) = fleet(&[], &[&pods]);
    assert_eq!(code, 2);
    assert!(
        err.contains("pods.json: its kind is \"PodList\", not a NodeList"),
        "{err}"
    );
    let mut list = node_list("List");
    list["items"][4]["metadata"]["labels"]["gpuctl.io/nvidia.count"] = "many".into();
    let bad = write("bad.json", &list);
    let (code, _, err) = fleet(&[], &[&bad]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.json: node \"dgx-b200\": label gpuctl.io/nvidia.count=\"many\" is not a count (digits)"), "{err}");
    let mut list = node_list("List");
    list["items"][0]["kind"] = "Pod".into();
    let (code, _, err) = fleet(&[], &[&write("pod.json", &list)]);
    assert_eq!(code, 2);
    assert!(err.contains("item 0 is a \"Pod\", not a Node"), "{err}");
    // Cut short: begun as kubectl prints it, so meant as a NodeList.
    let text = node_list("List").to_string();
    let cut = dir.path().join("cut.json");
    fs::write(&cut, &text[..text.len() / 2]).unwrap();
    let (code, _, err) = fleet(&[], &[&cut]);
    assert_eq!(code, 2);
    assert!(err.contains("cut.json: not JSON ("), "{err}");
    // Not JSON on standard input.
    let out = cargo_bin_cmd!("gpuctl")
        .args(["fleet", "-"])
        .write_stdin("NAME STATUS ROLES\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("-: not JSON ("), "{err}");
    // A node the DaemonSet does not label is named, not planned.
    let mut list = node_list("List");
    list["items"][0]["metadata"]["labels"] = json!({"kubernetes.io/hostname": "cpu-1"});
    let (_, out, err) = fleet(&[], &[&write("some.json", &list)]);
    assert!(out.starts_with("10 report(s) read, 1 skipped\n"), "{out}");
    assert!(err.contains("has no gpuctl.io label"), "{err}");
}
