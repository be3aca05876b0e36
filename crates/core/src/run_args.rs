//! Which of `podman run`'s arguments is the image, so that `gpuctl run` can check the image
//! before it starts a container (docs/image-check.md). The image is the first argument that
//! is neither an option nor an option's value, so every option's arity must be known: the
//! lists are every option podman documents for `podman run` from 4.3.1 to 5.8.2 (its
//! podman-run(1) page and the option pages it includes: a heading with `=value` takes one;
//! docs/image-check.md). An option not in them could take a value or not, so the image cannot
//! be told, and the check says so instead of guessing.

/// podman run's options that take no value (`--rm`, `-it`), long names.
const FLAGS: [&str; 25] = [
    "detach",
    "disable-content-trust",
    "env-host",
    "help",
    "http-proxy",
    "init",
    "interactive",
    "no-healthcheck",
    "no-hostname",
    "no-hosts",
    "oom-kill-disable",
    "passwd",
    "privileged",
    "publish-all",
    "quiet",
    "read-only",
    "read-only-tmpfs",
    "replace",
    "rm",
    "rmi",
    "rootfs",
    "sig-proxy",
    "tls-verify",
    "tty",
    "unsetenv-all",
];

/// The short forms of [`FLAGS`].
const SHORT_FLAGS: [char; 5] = ['d', 'i', 'P', 'q', 't'];

/// The short options that take a value (`-e KEY=V`, `-v /a:/b`).
const SHORT_VALUED: [char; 10] = ['a', 'c', 'e', 'h', 'l', 'm', 'p', 'u', 'v', 'w'];

/// podman run's options that take a value, long names.
const VALUED: [&str; 128] = [
    "add-host",
    "annotation",
    "arch",
    "attach",
    "authfile",
    "blkio-weight",
    "blkio-weight-device",
    "cap-add",
    "cap-drop",
    "cert-dir",
    "cgroup-conf",
    "cgroup-parent",
    "cgroupns",
    "cgroups",
    "chrootdirs",
    "cidfile",
    "conmon-pidfile",
    "cpu-period",
    "cpu-quota",
    "cpu-rt-period",
    "cpu-rt-runtime",
    "cpu-shares",
    "cpus",
    "cpuset-cpus",
    "cpuset-mems",
    "creds",
    "decryption-key",
    "detach-keys",
    "device",
    "device-cgroup-rule",
    "device-read-bps",
    "device-read-iops",
    "device-write-bps",
    "device-write-iops",
    "dns",
    "dns-option",
    "dns-search",
    "entrypoint",
    "env",
    "env-file",
    "env-merge",
    "expose",
    "gidmap",
    "gpus",
    "group-add",
    "group-entry",
    "health-cmd",
    "health-interval",
    "health-log-destination",
    "health-max-log-count",
    "health-max-log-size",
    "health-on-failure",
    "health-retries",
    "health-start-period",
    "health-startup-cmd",
    "health-startup-interval",
    "health-startup-retries",
    "health-startup-success",
    "health-startup-timeout",
    "health-timeout",
    "hostname",
    "hosts-file",
    "hostuser",
    "image-volume",
    "init-path",
    "ip",
    "ip6",
    "ipc",
    "label",
    "label-file",
    "link-local-ip",
    "log-driver",
    "log-opt",
    "mac-address",
    "memory",
    "memory-reservation",
    "memory-swap",
    "memory-swappiness",
    "mount",
    "name",
    "net",
    "network",
    "network-alias",
    "oom-score-adj",
    "os",
    "passwd-entry",
    "personality",
    "pid",
    "pidfile",
    "pids-limit",
    "platform",
    "pod",
    "pod-id-file",
    "preserve-fd",
    "preserve-fds",
    "publish",
    "pull",
    "rdt-class",
    "requires",
    "restart",
    "retry",
    "retry-delay",
    "sdnotify",
    "seccomp-policy",
    "secret",
    "security-opt",
    "shm-size",
    "shm-size-systemd",
    "stop-signal",
    "stop-timeout",
    "subgidname",
    "subuidname",
    "sysctl",
    "systemd",
    "timeout",
    "tmpfs",
    "tz",
    "uidmap",
    "ulimit",
    "umask",
    "unsetenv",
    "user",
    "userns",
    "uts",
    "variant",
    "volume",
    "volumes-from",
    "workdir",
];

/// What `run`'s arguments say the image is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageArg {
    /// This argument is the image.
    Image(String),
    /// `--rootfs`: the container's root is a directory, not an image.
    Rootfs,
    /// An option whose arity gpuctl does not know comes before the image.
    UnknownOption(String),
    /// No argument is left for the image.
    Missing,
}

/// The image among `podman run`'s arguments (what follows `podman run`).
pub fn image_of(args: &[String]) -> ImageArg {
    walk(args, |_, _| {})
}

/// One of the options that set the container's environment, as given (docs/image-check.md,
/// "The container's environment").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnvOption {
    /// `-e`/`--env KEY=VALUE`, `KEY` or `PREFIX*`.
    Env(String),
    /// `--env-file FILE`.
    EnvFile(String),
    /// `--env-merge KEY=VALUE` (podman: `${KEY}` in the value is the image's value).
    Merge(String),
    /// `--unsetenv KEY`.
    Unset(String),
    /// `--unsetenv-all` (podman; `=false` turns it off).
    UnsetAll(bool),
    /// `--env-host` (podman; `=false` turns it off).
    EnvHost(bool),
}

/// The environment options before the image, in the order given.
pub fn env_options(args: &[String]) -> Vec<EnvOption> {
    let mut out = Vec::new();
    walk(args, |name, value| {
        let flag = || value.is_none_or(|v| v != "false");
        match (name, value) {
            ("env" | "e", Some(v)) => out.push(EnvOption::Env(v.to_string())),
            ("env-file", Some(v)) => out.push(EnvOption::EnvFile(v.to_string())),
            ("env-merge", Some(v)) => out.push(EnvOption::Merge(v.to_string())),
            ("unsetenv", Some(v)) => out.push(EnvOption::Unset(v.to_string())),
            ("unsetenv-all", _) => out.push(EnvOption::UnsetAll(flag())),
            ("env-host", _) => out.push(EnvOption::EnvHost(flag())),
            _ => {}
        }
    });
    out
}

/// Walks the options before the image, telling `seen` each option's name (long, or the short
/// letter) and value (`None` for a flag without `=value`), and returns what the image is.
fn walk<'a>(args: &'a [String], mut seen: impl FnMut(&str, Option<&'a str>)) -> ImageArg {
    let mut rootfs = false;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if a == "--" {
            return next(args.get(i), rootfs);
        }
        if let Some(long) = a.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            if name == "rootfs" {
                rootfs = true;
            }
            if FLAGS.contains(&name) || (inline.is_some() && VALUED.contains(&name)) {
                seen(name, inline);
                continue;
            }
            if VALUED.contains(&name) {
                seen(name, args.get(i).map(String::as_str));
                i += 1;
                continue;
            }
            if inline.is_some() {
                continue;
            }
            return ImageArg::UnknownOption(a.clone());
        }
        if let Some(shorts) = a.strip_prefix('-').filter(|s| !s.is_empty()) {
            for (at, c) in shorts.char_indices() {
                if SHORT_FLAGS.contains(&c) {
                    continue;
                }
                if SHORT_VALUED.contains(&c) {
                    // `-v/a:/b` carries its value; `-v /a:/b` takes the next argument.
                    let rest = &shorts[at + c.len_utf8()..];
                    let value = if rest.is_empty() {
                        i += 1;
                        args.get(i - 1).map(String::as_str)
                    } else {
                        Some(rest)
                    };
                    seen(c.encode_utf8(&mut [0; 4]), value);
                    break;
                }
                return ImageArg::UnknownOption(a.clone());
            }
            continue;
        }
        return next(Some(a), rootfs);
    }
    ImageArg::Missing
}

fn next(arg: Option<&String>, rootfs: bool) -> ImageArg {
    match arg {
        _ if rootfs => ImageArg::Rootfs,
        Some(a) => ImageArg::Image(a.clone()),
        None => ImageArg::Missing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn image(args: &[&str]) -> ImageArg {
        image_of(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    #[rstest]
    #[case(&["--rm", "-it", "nvcr.io/nvidia/cuda:12.8.0-base-ubuntu22.04", "nvidia-smi"], "nvcr.io/nvidia/cuda:12.8.0-base-ubuntu22.04")]
    #[case(&["-v", "/a:/a", "-e", "X=1", "img", "-v"], "img")]
    #[case(&["-v/a:/a", "-itv", "/b:/b", "img"], "img")]
    #[case(&["--name=x", "--network", "none", "--security-opt=label=disable", "img"], "img")]
    #[case(&["--rm=false", "--", "img", "sh"], "img")]
    #[case(&["--workdir", "/w", "--volume", "/a:/a", "img"], "img")]
    // Options podman added after 4.3.1: --gpus (5.0), --retry (5.0), --no-hostname (5.4, a
    // flag), --hosts-file (5.4); --net is --network's other name.
    #[case(&["--gpus", "all", "--retry", "3", "--no-hostname", "img"], "img")]
    #[case(&["--hosts-file", "none", "--net", "host", "--link-local-ip", "169.254.0.2", "img"], "img")]
    fn the_image_is_found(#[case] args: &[&str], #[case] want: &str) {
        assert_eq!(image(args), ImageArg::Image(want.to_string()));
    }

    fn opts(args: &[&str]) -> Vec<EnvOption> {
        env_options(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn the_environment_options_before_the_image_are_found_in_order() {
        use EnvOption::*;
        assert_eq!(
            opts(&[
                "-e",
                "A=1",
                "--env=B=2",
                "-eC=3",
                "-ite",
                "D",
                "--env-file",
                "f.env",
                "--unsetenv",
                "E",
                "--env-host",
                "--unsetenv-all=false",
                "-v",
                "-e:/x",
                "img",
                "-e",
                "NOT=mine",
            ]),
            [
                Env("A=1".into()),
                Env("B=2".into()),
                Env("C=3".into()),
                Env("D".into()),
                EnvFile("f.env".into()),
                Unset("E".into()),
                EnvHost(true),
                UnsetAll(false),
            ]
        );
    }

    #[test]
    fn what_cannot_be_told_is_said() {
        assert_eq!(
            image(&["--frobnicate", "all", "img"]),
            ImageArg::UnknownOption("--frobnicate".to_string())
        );
        assert_eq!(
            image(&["-Z", "img"]),
            ImageArg::UnknownOption("-Z".to_string())
        );
        assert_eq!(image(&["--rm", "-e"]), ImageArg::Missing);
        assert_eq!(image(&["--rootfs", "/srv/root", "sh"]), ImageArg::Rootfs);
    }
}
