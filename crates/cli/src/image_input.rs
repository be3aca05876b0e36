//! Where `requirement`, `doctor` and `run` get an image's environment: a file (`KEY=VALUE` lines,
//! or the JSON list `podman image inspect --format '{{json .Config.Env}}'` prints), or podman
//! (`podman image inspect`, run by core at its podman boundary).

use std::io::Read;
use std::path::Path;

use gpuctl_core::commands::image_inspect::{self, InspectError};
use gpuctl_core::commands::input;
use gpuctl_core::commands::podman::SystemPodman;
use gpuctl_core::plugin::ImageEnv;

use gpuctl_core::plugin::requirement::RequirementInputError;

use crate::CliError;

/// An image's environment is a few KiB; more is not one (a log, a binary named by mistake).
const ENV_LIMIT: u64 = 1 << 20;

/// `--image-env FILE|-`: the image's environment, either form ([`ImageEnv::read`]), called
/// `name` in sentences. A named
/// pipe (`--image-env <(podman image inspect ...)`) is read like standard input and opened
/// without blocking (core's `input::open_named`), so a FIFO nobody writes to is empty input,
/// never a hang; a device or directory is refused before it is opened.
pub(crate) fn read_file(path: &Path, name: &str) -> Result<ImageEnv, CliError> {
    let bad = |reason: String| {
        CliError::Requirement(RequirementInputError::ImageEnv {
            file: path.display().to_string(),
            reason,
        })
    };
    let mut bytes = Vec::new();
    let read = if path.as_os_str() == "-" {
        std::io::stdin().take(ENV_LIMIT + 1).read_to_end(&mut bytes)
    } else {
        match input::open_named(path) {
            Ok(input::Named::File(f) | input::Named::Pipe(f)) => {
                f.take(ENV_LIMIT + 1).read_to_end(&mut bytes)
            }
            Err(e) => Err(e),
        }
    };
    read.map_err(|e| bad(format!("cannot be read: {e}")))?;
    if bytes.len() as u64 > ENV_LIMIT {
        return Err(bad(format!(
            "is larger than {} KiB, which no image's environment is; give the KEY=VALUE lines podman image inspect prints",
            ENV_LIMIT / 1024
        )));
    }
    let text = String::from_utf8(bytes).map_err(|_| {
        bad("is not UTF-8 text; give the KEY=VALUE lines podman image inspect prints".into())
    })?;
    ImageEnv::read(name, &text).map_err(|e| {
        bad(format!(
            "{e}; give the JSON list or the KEY=VALUE lines podman image inspect prints"
        ))
    })
}

/// The image's environment from the podman on `PATH`.
pub(crate) fn inspect(image: &str) -> Result<ImageEnv, InspectError> {
    let podman = SystemPodman::from_path_var(std::env::var_os("PATH").as_deref());
    image_inspect::inspect(&podman, image)
}
