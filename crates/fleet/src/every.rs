//! The timer of `gpuctl report --every`: wait between writes, and end the wait at SIGTERM or
//! SIGINT. In a FROM-scratch container gpuctl is PID 1, and the kernel delivers no signal to
//! PID 1 for which it has no handler (pid_namespaces(7): only signals it has a handler for),
//! so without one `podman stop` always waits its whole timeout and then kills it. A signal that
//! comes during a write lets that write finish (the temporary file renamed, or removed on
//! failure); the loop then ends and gpuctl exits 0.

use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use signal_hook::consts::{SIGINT, SIGTERM};

/// Watches SIGTERM and SIGINT for as long as it lives.
pub struct StopSignals {
    got: Receiver<i32>,
    handle: signal_hook::iterator::Handle,
}

impl StopSignals {
    /// Installs the handlers (from now on neither signal ends the process by itself).
    pub fn watch() -> std::io::Result<Self> {
        let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGINT])?;
        let handle = signals.handle();
        let (tx, got) = channel();
        std::thread::spawn(move || {
            for sig in signals.forever() {
                if tx.send(sig).is_err() {
                    break;
                }
            }
        });
        Ok(StopSignals { got, handle })
    }

    /// Waits up to `d`; true as soon as a stop signal has come (now, or while gpuctl was busy
    /// writing), false when the time is up.
    pub fn wait(&self, d: Duration) -> bool {
        match self.got.recv_timeout(d) {
            Ok(_) => true,
            Err(RecvTimeoutError::Timeout) => false,
            // The watcher is gone: no signal will be told, so the loop ends now, not never.
            Err(RecvTimeoutError::Disconnected) => true,
        }
    }
}

impl Drop for StopSignals {
    fn drop(&mut self) {
        self.handle.close();
    }
}
