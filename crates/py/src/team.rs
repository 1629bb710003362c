//! A small fixed team of threads for the frame vector environment: the caller runs part 0 of a
//! job and each worker one other part, with no queue and no stealing.
//!
//! A vector step of frame games is a few microseconds of work per thread (a frame is tens of
//! nanoseconds), so what a general pool costs per call — waking sleeping threads through the
//! kernel, putting the caller to sleep until the job is done, then waking it — is more than the
//! second core gives back. Here the caller works on its own part instead of sleeping, and an idle
//! worker spins for a short while ([`SPIN_BEFORE_PARK`]) before it parks, so the steps of a loop
//! that calls again within that time hand over through memory alone. When the workers do not
//! keep up (a machine whose other jobs leave the process about one core) the caller runs the
//! parts itself for a while ([`Team::run`]), and in a child forked after the workers started
//! (which has none of them) always.

use std::cell::UnsafeCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::{self, JoinHandle, Thread};
use std::time::{Duration, Instant};

/// How long an idle thread spins (re-checking, and yielding now and then so that a thread it
/// shares a core with still runs) before it parks: longer than the Python side of a vector step
/// takes between two calls, short enough to waste little when the caller does other work.
const SPIN_BEFORE_PARK: Duration = Duration::from_micros(50);

/// Calls in a row whose threads gained under a tenth over the caller alone after which the
/// team runs calls on the caller alone for a while (see [`Team::run`]).
const LOSSES_BEFORE_ALONE: u32 = 8;

/// Losses in a row that send the team back to the caller alone when it tries the threads again
/// (the first call then wakes workers that slept).
const LOSSES_WHEN_TRYING_AGAIN: u32 = 2;

/// Calls run on the caller alone the first time; doubled each time the threads, tried again,
/// still lose, up to [`MAX_ALONE_CALLS`].
const ALONE_CALLS: u32 = 200;

/// The most calls run on the caller alone before the threads are tried again.
const MAX_ALONE_CALLS: u32 = 200 * 1024;

/// Spin iterations between two looks at the clock (and two `yield_now`).
const SPINS_PER_CHECK: u32 = 64;

/// A job's parts as the workers see it: `part` runs with the part's index.
type Job<'a> = &'a (dyn Fn(usize) + Sync + 'a);

/// One worker's signals.
struct Signal {
    /// Incremented by the caller for each job this worker takes part in (and once more to stop
    /// it).
    generation: AtomicUsize,
    /// Whether the worker is parked or about to park (then the caller unparks it).
    sleeping: AtomicBool,
}

/// What the caller and the workers share.
struct Shared {
    /// Per worker.
    signals: Vec<Signal>,
    /// The current job; written by the caller before it increments the generations of the
    /// workers it wakes, read by those after they see their new generation, and not touched
    /// again by the caller until `pending` is back to 0.
    job: UnsafeCell<Option<Job<'static>>>,
    /// Workers that have not finished the current job.
    pending: AtomicUsize,
    /// Whether a worker's part panicked.
    panicked: AtomicBool,
    /// Set when the team is dropped.
    stop: AtomicBool,
    /// Whether the caller is parked or about to park, waiting for the workers.
    caller_sleeping: AtomicBool,
    /// The caller's thread while it waits for a job (so the last worker can unpark it).
    caller: UnsafeCell<Option<Thread>>,
}

// SAFETY: `job` and `caller` are written only by the caller while no worker reads them (before
// it increments the generations of the job's workers, which they read with `SeqCst` before they
// read the cells), and read by those workers only between that increment and their decrement of
// `pending`, which the caller waits for before it writes them again.
unsafe impl Sync for Shared {}

/// The caller's thread plus `threads - 1` workers.
pub struct Team {
    shared: Arc<Shared>,
    workers: Vec<(Thread, JoinHandle<()>)>,
    /// The process that started the workers: a child forked from it has none of them (only
    /// the forking thread survives a fork), so there the caller runs every part itself.
    process: u32,
    /// Calls in a row that the threads did not make faster.
    losses: u32,
    /// Losses in a row that send the team to the caller alone.
    losses_allowed: u32,
    /// Calls still to run on the caller alone.
    alone_for: u32,
    /// Calls to run on the caller alone the next time.
    alone_next: u32,
}

impl Team {
    /// A team of `threads` (at least 1; the caller is one of them).
    pub fn new(threads: usize) -> std::io::Result<Team> {
        let worker_count = threads.max(1) - 1;
        let shared = Arc::new(Shared {
            signals: (0..worker_count)
                .map(|_| Signal {
                    generation: AtomicUsize::new(0),
                    sleeping: AtomicBool::new(false),
                })
                .collect(),
            job: UnsafeCell::new(None),
            pending: AtomicUsize::new(0),
            panicked: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            caller_sleeping: AtomicBool::new(false),
            caller: UnsafeCell::new(None),
        });
        let mut workers = Vec::with_capacity(worker_count);
        for index in 0..worker_count {
            let s = Arc::clone(&shared);
            let handle = thread::Builder::new()
                .name(format!("playfield-vector-{}", index + 1))
                .spawn(move || work(&s, index))?;
            workers.push((handle.thread().clone(), handle));
        }
        Ok(Team {
            shared,
            workers,
            process: std::process::id(),
            losses: 0,
            losses_allowed: LOSSES_BEFORE_ALONE,
            alone_for: 0,
            alone_next: ALONE_CALLS,
        })
    }

    /// Threads of the team, the caller included.
    pub fn threads(&self) -> usize {
        self.workers.len() + 1
    }

    /// Runs `part(i)` for every `i` in `0..parts` (at most `self.threads()`): part 0 on the
    /// calling thread, the others on the first workers (the rest are not woken); returns when
    /// all are done. A part that panicked panics here.
    ///
    /// When the workers do not keep up — on a machine whose other jobs leave this process about
    /// one core, threads that share it take turns and each hand-over waits for a time slice —
    /// the caller runs every part itself for a while: after [`LOSSES_BEFORE_ALONE`] calls in a
    /// row that took over nine tenths of what the caller alone would have (its own part's time
    /// times the parts), the next [`ALONE_CALLS`] calls, then the threads are tried again; if
    /// they lose again ([`LOSSES_WHEN_TRYING_AGAIN`] calls in a row), twice as many calls alone,
    /// and so on up to [`MAX_ALONE_CALLS`]; a call they win resets all this. The parts and so the
    /// results are the same either way.
    pub fn run(&mut self, parts: usize, part: &(dyn Fn(usize) + Sync)) {
        let parts = parts.clamp(1, self.threads());
        if parts == 1 {
            part(0);
            return;
        }
        if std::process::id() != self.process {
            (0..parts).for_each(part);
            return;
        }
        if self.alone_for > 0 {
            self.alone_for -= 1;
            (0..parts).for_each(part);
            return;
        }
        let start = Instant::now();
        let s = &*self.shared;
        // SAFETY: the workers are idle (the last job's `pending` reached 0 before `run`
        // returned, and `&mut self` excludes another `run`), so nobody reads the cells; the
        // job's lifetime is extended only until this function has waited for every worker.
        unsafe {
            *s.job.get() = Some(std::mem::transmute::<Job<'_>, Job<'static>>(part));
            *s.caller.get() = Some(thread::current());
        }
        s.pending.store(parts - 1, Ordering::SeqCst);
        for (signal, (thread, _)) in s.signals.iter().zip(&self.workers).take(parts - 1) {
            signal.generation.fetch_add(1, Ordering::SeqCst);
            if signal.sleeping.swap(false, Ordering::SeqCst) {
                thread.unpark();
            }
        }
        let mine = catch_unwind(AssertUnwindSafe(|| part(0)));
        let own = start.elapsed();
        // Wait for the workers even if part 0 panicked: they still hold `part`.
        wait_until(&s.caller_sleeping, || s.pending.load(Ordering::SeqCst) == 0);
        let alone = own.saturating_mul(u32::try_from(parts).unwrap_or(u32::MAX));
        if start.elapsed().saturating_mul(10) > alone.saturating_mul(9) {
            self.losses += 1;
            if self.losses >= self.losses_allowed {
                self.losses = 0;
                self.losses_allowed = LOSSES_WHEN_TRYING_AGAIN;
                self.alone_for = self.alone_next;
                self.alone_next = self.alone_next.saturating_mul(2).min(MAX_ALONE_CALLS);
            }
        } else {
            self.losses = 0;
            self.losses_allowed = LOSSES_BEFORE_ALONE;
            self.alone_next = ALONE_CALLS;
        }
        // SAFETY: every worker is done with the job.
        unsafe {
            *s.job.get() = None;
        }
        if let Err(payload) = mine {
            std::panic::resume_unwind(payload);
        }
        if s.panicked.swap(false, Ordering::SeqCst) {
            panic!("a thread of the vector environment panicked");
        }
    }
}

impl Drop for Team {
    fn drop(&mut self) {
        if std::process::id() != self.process {
            // A forked child: the workers are not here to be stopped or joined.
            return;
        }
        let s = &*self.shared;
        s.stop.store(true, Ordering::SeqCst);
        for (signal, (thread, _)) in s.signals.iter().zip(&self.workers) {
            signal.generation.fetch_add(1, Ordering::SeqCst);
            thread.unpark();
        }
        for (_, handle) in self.workers.drain(..) {
            // A worker catches its parts' panics, so joining does not fail.
            let _ = handle.join();
        }
    }
}

/// Spins until `done()`, then (after [`SPIN_BEFORE_PARK`]) parks with `sleeping` set until it is:
/// whoever makes `done()` true swaps `sleeping` back and unparks this thread.
fn wait_until(sleeping: &AtomicBool, done: impl Fn() -> bool) {
    let start = Instant::now();
    let mut spins = 0u32;
    while !done() {
        std::hint::spin_loop();
        spins += 1;
        if spins.is_multiple_of(SPINS_PER_CHECK) {
            if start.elapsed() >= SPIN_BEFORE_PARK {
                sleeping.store(true, Ordering::SeqCst);
                // Checked again after the flag is visible: a waker that made `done()` true
                // before it saw the flag would not unpark (SeqCst on both sides).
                while !done() {
                    thread::park();
                }
                sleeping.store(false, Ordering::SeqCst);
                return;
            }
            thread::yield_now();
        }
    }
}

/// A worker's loop: wait for a new generation, run its part, report.
fn work(s: &Shared, index: usize) {
    let Some(signal) = s.signals.get(index) else {
        return;
    };
    let mut seen = 0;
    loop {
        wait_until(&signal.sleeping, || {
            signal.generation.load(Ordering::SeqCst) != seen
        });
        // One increment per job: the caller waits for this worker before the next.
        seen = seen.wrapping_add(1);
        if s.stop.load(Ordering::SeqCst) {
            return;
        }
        // SAFETY: see `Shared`: the job was written before the generation this worker saw.
        let (job, caller) = unsafe { (*s.job.get(), (*s.caller.get()).clone()) };
        if let Some(job) = job
            && catch_unwind(AssertUnwindSafe(|| job(index + 1))).is_err()
        {
            s.panicked.store(true, Ordering::SeqCst);
        }
        if s.pending.fetch_sub(1, Ordering::SeqCst) == 1
            && s.caller_sleeping.swap(false, Ordering::SeqCst)
            && let Some(caller) = caller
        {
            caller.unpark();
        }
    }
}
