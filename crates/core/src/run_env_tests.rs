//! The container's environment from the image and run's options, per engine.

use super::*;
use rstest::rstest;

fn image() -> ImageEnv {
    ImageEnv::parse(
        "img",
        "NVIDIA_REQUIRE_CUDA=cuda>=12.8\nCUDA_VERSION=12.8.0\nPATH=/usr/bin\n",
    )
}

fn host(engine: Engine) -> RunHost {
    RunHost {
        engine,
        vars: vec![
            ("NVIDIA_DISABLE_REQUIRE".to_string(), "1".to_string()),
            ("NVIDIA_X".to_string(), "x".to_string()),
        ],
    }
}

fn env_of(options: &[EnvOption], engine: Engine) -> ImageEnv {
    container_env(&image(), options, &host(engine)).unwrap()
}

#[rstest]
#[case::value(EnvOption::Env("NVIDIA_DISABLE_REQUIRE=true".into()), Engine::Podman, Some("true"))]
#[case::from_the_host(EnvOption::Env("NVIDIA_DISABLE_REQUIRE".into()), Engine::Podman, Some("1"))]
#[case::prefix(EnvOption::Env("NVIDIA_D*".into()), Engine::Podman, Some("1"))]
#[case::docker_has_no_prefix(EnvOption::Env("NVIDIA_D*".into()), Engine::Docker, None)]
#[case::host(EnvOption::EnvHost(true), Engine::Podman, Some("1"))]
#[case::host_off(EnvOption::EnvHost(false), Engine::Podman, None)]
fn an_option_sets_what_the_hook_reads(
    #[case] option: EnvOption,
    #[case] engine: Engine,
    #[case] want: Option<&str>,
) {
    assert_eq!(
        env_of(&[option], engine).get("NVIDIA_DISABLE_REQUIRE"),
        want
    );
}

#[test]
fn a_name_the_host_lacks_keeps_the_image_s_value_on_podman_and_drops_it_on_docker() {
    let opt = [EnvOption::Env("CUDA_VERSION".into())];
    assert_eq!(
        env_of(&opt, Engine::Podman).get("CUDA_VERSION"),
        Some("12.8.0")
    );
    assert_eq!(env_of(&opt, Engine::Docker).get("CUDA_VERSION"), None);
}

#[test]
fn unset_merge_and_the_order_of_precedence() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("a.env");
    std::fs::write(&f, "NVIDIA_REQUIRE_CUDA=cuda>=13.0\n").unwrap();
    let file = EnvOption::EnvFile(f.display().to_string());
    // --env wins over --env-file whatever their order
    let env = env_of(
        &[
            EnvOption::Env("NVIDIA_REQUIRE_CUDA=cuda>=12.0".into()),
            file.clone(),
        ],
        Engine::Podman,
    );
    assert_eq!(env.get("NVIDIA_REQUIRE_CUDA"), Some("cuda>=12.0"));
    assert_eq!(
        env_of(&[file], Engine::Podman).get("NVIDIA_REQUIRE_CUDA"),
        Some("cuda>=13.0")
    );
    let env = env_of(
        &[EnvOption::Unset("NVIDIA_REQUIRE_CUDA".into())],
        Engine::Podman,
    );
    assert_eq!(env.get("NVIDIA_REQUIRE_CUDA"), None);
    let env = env_of(
        &[EnvOption::UnsetAll(true), EnvOption::Env("A=1".into())],
        Engine::Podman,
    );
    assert_eq!(env.vars(), [("A".to_string(), "1".to_string())]);
    let env = env_of(
        &[EnvOption::Merge(
            "NVIDIA_REQUIRE_CUDA=${NVIDIA_REQUIRE_CUDA} brand=tesla".into(),
        )],
        Engine::Podman,
    );
    assert_eq!(
        env.get("NVIDIA_REQUIRE_CUDA"),
        Some("cuda>=12.8 brand=tesla")
    );
}

#[rstest]
#[case::podman(
    Engine::Podman,
    &["A=1", "B=two words", "C=x\ny", "D=kept as \"written", "NVIDIA_X"]
)]
#[case::docker(
    Engine::Docker,
    &["A=1", "export B=\"two words\"", "C='x", "y'", "D=kept as \"written", "NVIDIA_X"]
)]
fn env_file_lines(#[case] engine: Engine, #[case] want: &[&str]) {
    let text =
        "# comment\n\n  A=1\nexport B=\"two words\"\nC='x\ny'\nD=kept as \"written\nNVIDIA_X\n";
    // docker has no `export` syntax and no quotes: `export B` is its key
    assert_eq!(env_file_entries(text, engine), want);
}

#[test]
fn an_env_file_that_is_no_regular_file_is_not_read() {
    let d = tempfile::tempdir().unwrap();
    let fifo = d.path().join("p");
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
    )
    .unwrap();
    let err = container_env(
        &image(),
        &[EnvOption::EnvFile(fifo.display().to_string())],
        &host(Engine::Podman),
    )
    .unwrap_err();
    assert!(
        err.contains("is a FIFO (named pipe), not a regular file"),
        "{err}"
    );
    let err = container_env(
        &image(),
        &[EnvOption::EnvFile("/nonexistent/x.env".into())],
        &host(Engine::Podman),
    )
    .unwrap_err();
    assert!(
        err.starts_with("--env-file /nonexistent/x.env cannot be read"),
        "{err}"
    );
}
