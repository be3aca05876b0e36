//! An image's environment from podman (`podman image inspect`, at the podman boundary,
//! [`super::podman`]); the pairs themselves are [`crate::image_env::ImageEnv`].

use super::podman::PodmanCli;
use crate::image_env::ImageEnv;

/// Why an image's environment could not be read from podman.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InspectError {
    /// No podman on `PATH`.
    #[error("podman is not on PATH, so image {image} cannot be inspected")]
    NoPodman {
        /// The image as given.
        image: String,
    },
    /// podman failed (the image is not in local storage, most often) or timed out.
    #[error("cannot inspect image {image} ({reason})")]
    Failed {
        /// The image as given.
        image: String,
        /// podman's failure in its words, or the time limit.
        reason: String,
    },
}

/// The image's environment from podman (`podman image inspect --format ENV_FORMAT -- IMAGE`):
/// local storage only, nothing is pulled. The `--` keeps an image name starting with `-` from
/// being read as a flag.
pub fn inspect(cli: &dyn PodmanCli, image: &str) -> Result<ImageEnv, InspectError> {
    match cli.image_env(image) {
        None => Err(InspectError::NoPodman {
            image: image.to_string(),
        }),
        Some(Ok(text)) => ImageEnv::from_json(image, &text).map_err(|e| InspectError::Failed {
            image: image.to_string(),
            reason: format!("its answer {e}"),
        }),
        Some(Err(reason)) => Err(InspectError::Failed {
            image: image.to_string(),
            reason,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::podman::MockPodmanCli;
    use mockall::predicate::eq;

    #[test]
    fn podman_s_json_becomes_pairs_and_lines_are_not_taken_from_it() {
        let mut m = MockPodmanCli::new();
        m.expect_image_env()
            .returning(|_| Some(Ok("[\"A=1\\nB=2\"]\n".to_string())));
        let env = inspect(&m, "img").unwrap();
        assert_eq!(env.get("A"), Some("1\nB=2"));
        assert_eq!(env.get("B"), None);
        let mut m = MockPodmanCli::new();
        m.expect_image_env()
            .returning(|_| Some(Ok("A=1\n".to_string())));
        let err = inspect(&m, "img")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.starts_with("cannot inspect image img (its answer is not the JSON list of strings"),
            "{err}"
        );
    }

    #[test]
    fn lines_become_pairs_and_a_later_value_wins() {
        let env = ImageEnv::parse(
            "img",
            "PATH=/usr/bin\n\nNVIDIA_REQUIRE_CUDA=cuda>=12.8\r\nA=1=2\nA=3\n=x\nnoequals\n",
        );
        assert_eq!(env.get("NVIDIA_REQUIRE_CUDA"), Some("cuda>=12.8"));
        assert_eq!(env.get("A"), Some("3"));
        assert_eq!(env.get("noequals"), None);
        assert_eq!(
            env.vars()
                .iter()
                .map(|(k, _)| k.as_str())
                .collect::<Vec<_>>(),
            ["PATH", "NVIDIA_REQUIRE_CUDA", "A"]
        );
        assert_eq!(env.name(), "img");
    }

    #[test]
    fn podman_s_answer_its_absence_and_its_failure() {
        let mut m = MockPodmanCli::new();
        m.expect_image_env()
            .with(eq("docker.io/rocm/dev-ubuntu-22.04:6.2"))
            .returning(|_| Some(Ok("[\"ROCM_VERSION=6.2\",\"PATH=/bin\"]\n".to_string())));
        let env = inspect(&m, "docker.io/rocm/dev-ubuntu-22.04:6.2");
        assert_eq!(
            env.as_ref().ok().and_then(|e| e.get("ROCM_VERSION")),
            Some("6.2")
        );

        let mut m = MockPodmanCli::new();
        m.expect_image_env().returning(|_| None);
        assert!(matches!(
            inspect(&m, "x"),
            Err(InspectError::NoPodman { .. })
        ));

        let mut m = MockPodmanCli::new();
        m.expect_image_env().returning(|_| {
            Some(Err(
                "'podman image inspect' failed (exit status: 125): Error: nosuch: image not known"
                    .to_string(),
            ))
        });
        let err = inspect(&m, "nosuch").err().map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some(
                "cannot inspect image nosuch ('podman image inspect' failed (exit status: 125): Error: nosuch: image not known)"
            )
        );
    }
}
