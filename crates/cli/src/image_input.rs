//! Where `doctor` and `run` get an image's environment: a file of `KEY=VALUE` lines, or
//! podman (`podman image inspect`, run by core at its podman boundary).

use std::path::Path;

use gpuctl_core::doctor::SystemPodman;
use gpuctl_core::image::{self, InspectError};
use gpuctl_core::image_env::ImageEnv;

use gpuctl_core::requirement::answer::RequirementInputError;

use crate::CliError;

/// `--image-env FILE|-`: the image's environment lines, called `name` in sentences.
pub(crate) fn read_file(path: &Path, name: &str) -> Result<ImageEnv, CliError> {
    let text = if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map(|_| s)
    } else {
        std::fs::read_to_string(path)
    };
    text.map(|t| ImageEnv::parse(name, &t)).map_err(|e| {
        CliError::Requirement(RequirementInputError::ImageEnv {
            file: path.display().to_string(),
            reason: format!("cannot be read: {e}"),
        })
    })
}

/// The image's environment from the podman on `PATH`.
pub(crate) fn inspect(image: &str) -> Result<ImageEnv, InspectError> {
    let podman = SystemPodman::from_path_var(std::env::var_os("PATH").as_deref());
    image::inspect(&podman, image)
}
