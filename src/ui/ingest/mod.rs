//! The page's side of the ingest workers: a pool of `Worker`s running the `ingest` binary (`pool`),
//! jobs run one at a time with progress (`job`), the workers' messages acted on (`answers`; the
//! protocol: `crate::protocol`), cancelled by terminating their workers (the workspace only
//! changes when a job is done, so a cancel leaves it as it was). A finished job's answer is read
//! run by run in `ui::ingest_read`.

mod answers;
mod job;
mod pool;

pub use job::submit;
pub(in crate::ui) use job::{is_current, opening};
pub use pool::cancel;
pub(in crate::ui) use pool::{diagnose, start_worker, SPENT_BYTES};

use crate::wire::Done;
use std::rc::Rc;
use web_sys::Blob;

/// What a job reads.
#[derive(Clone)]
pub enum Input {
    Blob(Blob),
    /// An absolute http(s) URL, downloaded by the worker.
    Url(String),
}

/// Progress of the running job.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub name: String,
    pub bytes: u64,
    pub total: Option<u64>,
    pub records: u64,
    /// `performance.now()` when the job started.
    pub started_ms: f64,
    /// Runs of the finished answer read so far (a big bundle opens run by run).
    pub opening: Option<Opening>,
}

/// How far the reading of a finished answer's runs is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opening {
    /// Runs read.
    pub read: usize,
    /// Of how many.
    pub of: usize,
}

pub type OnProgress = Rc<dyn Fn(Option<Progress>)>;
/// The finished import, and what to keep for a reload (when asked, and it is a bundle file: the
/// file as given; raw files are remembered as the runs the import panel makes of them).
pub type OnDone = Box<dyn FnOnce(Result<(Done, Option<Blob>), String>)>;

pub(in crate::ui) fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Sets how many workers may share one file (at least 1) and where progress goes, and starts the
/// first worker so it is ready when the first file arrives.
pub fn init(workers: usize, on_progress: OnProgress) {
    pool::configure(workers.max(1), on_progress);
    pool::ensure_slot(0);
}

/// The number of workers to use: `workers` from the URL, else the machine's cores (at most 4).
pub fn default_workers() -> usize {
    let cores = web_sys::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    (cores as usize).clamp(1, 4)
}
