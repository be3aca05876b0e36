//! Links the `gpuctl` executable at a fixed address (not position-independent) on Linux.
//!
//! Why: every command starts by letting the dynamic loader patch each pointer in gpuctl's
//! static tables (a relative relocation per pointer in a position-independent executable).
//! explain's emitter tables hold thousands (9,006 relocations at issue 31's round 4, 5,125
//! before), and the loader's pass over them is most of what `gpuctl args none` costs:
//! `cargo xtask bench --check` measured args-none-8 at 666,600 instructions against a budget
//! of 590,000. Linked at a fixed address the linker resolves them once, at build time. The code
//! itself stays position-independent; only the executable's own image loses address-space
//! randomisation (its libraries, stack and heap keep it). docs/performance.md has the figures.
fn main() {
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    // A static build (`-C target-feature=+crt-static`, the DaemonSet image's,
    // deploy/container/Containerfile) is a static PIE, which `-no-pie` would turn back into a
    // program that asks for the dynamic loader: it keeps rustc's own link.
    let static_crt = std::env::var("CARGO_CFG_TARGET_FEATURE")
        .is_ok_and(|f| f.split(',').any(|f| f == "crt-static"));
    // `-no-pie` is gcc's and clang's driver flag; only the bins get it, never a test or a
    // library, so nothing else in the workspace is linked differently.
    if linux && !static_crt {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
    println!("cargo::rerun-if-changed=build.rs");
}
