//! `playfield minijong stats`: solve many deals in parallel and summarise (statistics from
//! `playfield_report`).

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use playfield_minijong::Board;
use playfield_minijong::solver::solve_limited;
use playfield_report::batch::Batch;
use playfield_report::chart;
use playfield_report::stats::{percentile, wilson};
use serde::Serialize;

use crate::files::OutputFile;
use crate::output::{Out, progress_bar};

/// The command's settings.
pub struct StatsRun<'a> {
    /// Number of deals.
    pub deals: u64,
    /// First seed.
    pub seed: u64,
    /// JSON output.
    pub json: bool,
    /// SVG histogram of solver times.
    pub plot: Option<&'a Path>,
    /// Search budget per deal.
    pub max_nodes: u64,
    /// Worker threads.
    pub threads: Option<usize>,
}

/// One deal's result. Everything but the time is the same for any thread count.
struct Deal {
    /// `None` when the node budget ran out before the deal was decided.
    winnable: Option<bool>,
    tiles_left: Option<usize>,
    seconds: f64,
}

#[derive(Serialize)]
struct TimeMs {
    median: f64,
    p99: f64,
    max: f64,
}

#[derive(Serialize)]
struct Summary {
    deals: u64,
    first_seed: u64,
    winnable: u64,
    /// Deals not decided within `max_nodes` (left out of `fraction` and `ci95`).
    undecided: u64,
    max_nodes: u64,
    fraction: f64,
    /// Wilson score interval, 95%.
    ci95: [f64; 2],
    /// Best reachable result: tiles left -> deals.
    tiles_left: BTreeMap<usize, u64>,
    time_ms: TimeMs,
    threads: usize,
}

/// What the deals add up to, kept as they finish (a few bytes per deal).
#[derive(Default)]
struct Tally {
    winnable: u64,
    undecided: u64,
    tiles_left: BTreeMap<usize, u64>,
    seconds: Vec<f64>,
}

impl Tally {
    fn add(&mut self, d: &Deal) {
        match d.winnable {
            None => self.undecided += 1,
            Some(true) => self.winnable += 1,
            Some(false) => {}
        }
        if let Some(t) = d.tiles_left {
            *self.tiles_left.entry(t).or_insert(0) += 1;
        }
        self.seconds.push(d.seconds);
    }
}

/// Runs the command.
pub fn run(r: &StatsRun<'_>) -> anyhow::Result<()> {
    let seed = r.seed;
    let last = seed
        .checked_add(r.deals - 1)
        .context("--seed + --deals overflows a 64-bit seed")?;
    let plot = match r.plot {
        Some(path) => Some(OutputFile::create(path, "--plot")?),
        None => None,
    };
    let batch = Batch::new(r.threads)?.chunk(4096);
    let bar = progress_bar(r.deals, "{bar:40} {pos}/{len} deals, {elapsed} (eta {eta})");
    let mut tally = Tally::default();
    batch.run(
        0..r.deals,
        |i| {
            // `seed + i` stays within `last`, checked above.
            let board = Board::deal(seed + i);
            let start = Instant::now();
            let solution = solve_limited(&board, &board.initial_heights(), r.max_nodes);
            let seconds = start.elapsed().as_secs_f64();
            Deal {
                winnable: solution.as_ref().map(|s| s.winnable),
                tiles_left: solution.map(|s| s.tiles_left),
                seconds,
            }
        },
        || bar.inc(1),
        |_, deal| {
            tally.add(&deal);
            Ok::<(), std::convert::Infallible>(())
        },
    )?;
    bar.finish_and_clear();

    let threads = batch.threads();
    let mut ms: Vec<f64> = tally.seconds.iter().map(|s| s * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    let decided = r.deals - tally.undecided;
    let ci = wilson(tally.winnable, decided);
    let summary = Summary {
        deals: r.deals,
        first_seed: seed,
        winnable: tally.winnable,
        undecided: tally.undecided,
        max_nodes: r.max_nodes,
        fraction: if decided == 0 {
            0.0
        } else {
            tally.winnable as f64 / decided as f64
        },
        ci95: [ci.low, ci.high],
        tiles_left: tally.tiles_left.clone(),
        time_ms: TimeMs {
            median: percentile(&ms, 0.5),
            p99: percentile(&ms, 0.99),
            max: ms.last().copied().unwrap_or(0.0),
        },
        threads,
    };
    let mut out = Out::new();
    if r.json {
        out.line(serde_json::to_string(&summary)?)?;
    } else {
        out.line(format!(
            "deals: {} (seeds {}..={})",
            summary.deals, seed, last
        ))?;
        out.line(format!(
            "winnable: {} of {} decided = {:.4}, 95% CI [{:.4}, {:.4}] (Wilson)",
            summary.winnable, decided, summary.fraction, summary.ci95[0], summary.ci95[1]
        ))?;
        out.line(format!(
            "undecided after {} search positions: {}",
            summary.max_nodes, summary.undecided
        ))?;
        let hist: Vec<String> = summary
            .tiles_left
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        out.line(format!(
            "best result, tiles left -> deals: {}",
            hist.join(", ")
        ))?;
        out.line(format!(
            "solver time per deal: median {:.3} ms, p99 {:.3} ms, max {:.3} ms ({} threads)",
            summary.time_ms.median, summary.time_ms.p99, summary.time_ms.max, summary.threads
        ))?;
    }
    out.flush()?;
    if let Some(file) = plot {
        let svg = chart::duration_histogram(
            &format!("Minijong solver time per deal ({} deals)", r.deals),
            &tally.seconds,
        )?;
        file.commit_bytes(svg.as_bytes())?;
    }
    Ok(())
}
