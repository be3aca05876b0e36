//! `cargo bench -p xtask --bench spec_dir`: the CDI spec-directory read alone (list, stat,
//! read, parse, validate, resolve), on the benchmark hosts' NVIDIA specs of 64 KiB to 2 MiB in
//! both formats. Criterion reports each size's time and throughput; equal throughput across
//! sizes is the "linear in size" goal, and the 2 MiB lines the 10 ms goal (issue 9).
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use gpuctl_cdi::CdiRegistry;
use gpuctl_core::plugin::Host;

#[path = "../src/bench/hosts.rs"]
#[allow(dead_code)]
mod hosts;

use hosts::SpecFormat;

fn spec_dir(c: &mut Criterion) {
    let base = std::env::temp_dir().join(format!("gpuctl-bench-spec-dir-{}", std::process::id()));
    let mut group = c.benchmark_group("spec_dir_read");
    group.sample_size(20);
    for format in [SpecFormat::Json, SpecFormat::Yaml] {
        for kib in [64usize, 512, 2048] {
            let gpus = hosts::gpus_for_bytes(format, kib << 10).unwrap();
            let dir = base.join(format!("{kib}-{}", format.ext()));
            let spec = hosts::spec(gpus, format).unwrap();
            std::fs::create_dir_all(dir.join("etc/cdi")).unwrap();
            std::fs::write(dir.join(format!("etc/cdi/nvidia.{}", format.ext())), &spec).unwrap();
            let host = Host::at(&dir).unwrap();
            let dirs = [PathBuf::from("/etc/cdi")];
            assert!(CdiRegistry::scan(&host, &dirs).warnings().is_empty());
            group.throughput(Throughput::Bytes(spec.len() as u64));
            group.bench_with_input(
                BenchmarkId::new(format.ext(), format!("{kib}KiB")),
                &host,
                |b, host| b.iter(|| black_box(CdiRegistry::scan(host, &dirs))),
            );
        }
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&base);
}

criterion_group!(benches, spec_dir);
criterion_main!(benches);
