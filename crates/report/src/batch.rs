//! Many independent runs (games, deals) on a pool of worker threads, their results handed back in
//! order: what every front end's benchmark does between its options and its report.
//!
//! Runs are played a chunk at a time; each chunk's results go to the caller in index order as soon
//! as the chunk is done, so what a caller prints does not depend on the number of threads, a long
//! batch shows its results as it goes, and memory holds one chunk of results at a time.
//!
//! ```
//! use playfield_report::batch::Batch;
//! let batch = Batch::new(Some(2))?;
//! let mut squares = Vec::new();
//! batch.run(0..5, |i| i * i, || (), |i, square| {
//!     squares.push((i, square));
//!     Ok::<(), std::convert::Infallible>(())
//! })?;
//! assert_eq!(squares, [(0, 0), (1, 1), (2, 4), (3, 9), (4, 16)]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::ops::Range;

use rayon::prelude::*;
use thiserror::Error;

/// Most worker threads a batch runs on.
pub const MAX_THREADS: usize = 256;

/// Runs handed back together when [`Batch::chunk`] is not set: this many per thread.
const RUNS_PER_THREAD: u64 = 2;

/// A batch that cannot start.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum BatchError {
    /// A thread count out of range.
    #[error("{0} worker threads are not allowed: a batch runs on 1 to {MAX_THREADS} threads")]
    Threads(usize),
    /// The system refused the worker threads.
    #[error("cannot start the worker threads: {0}")]
    Pool(#[from] rayon::ThreadPoolBuildError),
}

/// A pool of worker threads for one batch.
#[derive(Debug)]
pub struct Batch {
    pool: rayon::ThreadPool,
    chunk: Option<u64>,
}

impl Batch {
    /// A pool of `threads` workers (`None`: one per core).
    ///
    /// # Errors
    /// [`BatchError::Threads`] for 0 or more than [`MAX_THREADS`] threads; [`BatchError::Pool`]
    /// when the threads cannot be started.
    pub fn new(threads: Option<usize>) -> Result<Batch, BatchError> {
        if let Some(n) = threads
            && !(1..=MAX_THREADS).contains(&n)
        {
            return Err(BatchError::Threads(n));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.unwrap_or(0))
            .build()?;
        Ok(Batch { pool, chunk: None })
    }

    /// Hands results back `runs` at a time (at least 1) instead of two per thread.
    #[must_use]
    pub fn chunk(self, runs: u64) -> Batch {
        Batch {
            chunk: Some(runs.max(1)),
            ..self
        }
    }

    /// Hands results back `runs` per thread at a time (at least one chunk of `runs`).
    #[must_use]
    pub fn chunk_per_thread(self, runs: u64) -> Batch {
        let runs = (self.threads() as u64 * runs).max(runs);
        self.chunk(runs)
    }

    /// The number of worker threads.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Plays runs `indices` with `play`, on the workers. `done` is called on a worker as each run
    /// ends (a progress bar); `each(index, result)` on the calling thread, in index order, a
    /// chunk at a time. Stops at the first error `each` returns, before the next chunk.
    ///
    /// # Errors
    /// The first error of `each`.
    pub fn run<T, E>(
        &self,
        indices: Range<u64>,
        play: impl Fn(u64) -> T + Sync,
        done: impl Fn() + Sync,
        mut each: impl FnMut(u64, T) -> Result<(), E>,
    ) -> Result<(), E>
    where
        T: Send,
    {
        let chunk = self
            .chunk
            .unwrap_or_else(|| (self.threads() as u64 * RUNS_PER_THREAD).max(RUNS_PER_THREAD));
        let mut first = indices.start;
        while first < indices.end {
            let last = first.saturating_add(chunk).min(indices.end);
            let results: Vec<T> = self.pool.install(|| {
                (first..last)
                    .into_par_iter()
                    .map(|i| {
                        let result = play(i);
                        done();
                        result
                    })
                    .collect()
            });
            for (i, result) in (first..).zip(results) {
                each(i, result)?;
            }
            first = last;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::*;

    #[test]
    fn results_come_back_in_order_whatever_the_threads() {
        for threads in [1, 3] {
            for chunk in [1, 4, 100] {
                let batch = Batch::new(Some(threads)).unwrap().chunk(chunk);
                assert_eq!(batch.threads(), threads);
                let finished = AtomicU64::new(0);
                let mut seen = Vec::new();
                batch
                    .run(
                        10..27,
                        |i| i * 3,
                        || {
                            finished.fetch_add(1, Ordering::Relaxed);
                        },
                        |i, r| {
                            seen.push((i, r));
                            Ok::<(), ()>(())
                        },
                    )
                    .unwrap();
                assert_eq!(finished.load(Ordering::Relaxed), 17);
                assert_eq!(seen, (10..27).map(|i| (i, i * 3)).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn an_error_stops_the_batch_after_its_chunk() {
        let batch = Batch::new(Some(2)).unwrap().chunk(4);
        let played = AtomicU64::new(0);
        let mut seen = Vec::new();
        let result = batch.run(
            0..100,
            |i| {
                played.fetch_add(1, Ordering::Relaxed);
                i
            },
            || (),
            |i, _| {
                seen.push(i);
                if i == 5 {
                    Err(format!("run {i}"))
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(result, Err("run 5".to_owned()));
        assert_eq!(seen, [0, 1, 2, 3, 4, 5]);
        assert_eq!(played.load(Ordering::Relaxed), 8);
    }

    #[test]
    fn thread_counts_out_of_range_are_refused() {
        for n in [0, MAX_THREADS + 1] {
            let e = Batch::new(Some(n)).unwrap_err().to_string();
            assert!(e.contains(&format!("{n} worker threads")), "{e}");
        }
        assert!(Batch::new(None).unwrap().threads() >= 1);
    }
}
