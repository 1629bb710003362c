//! `playfield minijong stats`: solve many deals in parallel and summarise.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use playfield_minijong::Board;
use playfield_minijong::solver::solve_limited;
use rayon::prelude::*;
use serde::Serialize;

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

/// Runs the command.
pub fn run(
    deals: u64,
    seed: u64,
    json: bool,
    plot: Option<&Path>,
    max_nodes: u64,
) -> anyhow::Result<()> {
    let last = seed
        .checked_add(deals - 1)
        .context("--seed + --deals overflows a 64-bit seed")?;
    let bar = ProgressBar::with_draw_target(
        Some(deals),
        if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} deals, {elapsed} (eta {eta})")
            .context("progress bar template")?,
    );
    // Ordered collect: results line up with seeds whatever the thread count.
    let results: Vec<Deal> = (seed..=last)
        .into_par_iter()
        .map(|s| {
            let board = Board::deal(s);
            let start = Instant::now();
            let solution = solve_limited(&board, &board.initial_heights(), max_nodes);
            let seconds = start.elapsed().as_secs_f64();
            bar.inc(1);
            Deal {
                winnable: solution.as_ref().map(|s| s.winnable),
                tiles_left: solution.map(|s| s.tiles_left),
                seconds,
            }
        })
        .collect();
    bar.finish_and_clear();

    let summary = summarise(&results, seed, max_nodes);
    if let Some(path) = plot {
        let svg = time_histogram_svg(&results);
        std::fs::write(path, svg).with_context(|| format!("writing {}", path.display()))?;
    }
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer(&mut out, &summary)?;
        writeln!(out)?;
    } else {
        writeln!(out, "deals: {} (seeds {}..={})", summary.deals, seed, last)?;
        writeln!(
            out,
            "winnable: {} of {} decided = {:.4}, 95% CI [{:.4}, {:.4}] (Wilson)",
            summary.winnable,
            summary.deals - summary.undecided,
            summary.fraction,
            summary.ci95[0],
            summary.ci95[1]
        )?;
        writeln!(
            out,
            "undecided after {} search positions: {}",
            summary.max_nodes, summary.undecided
        )?;
        let hist: Vec<String> = summary
            .tiles_left
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        writeln!(out, "best result, tiles left -> deals: {}", hist.join(", "))?;
        writeln!(
            out,
            "solver time per deal: median {:.3} ms, p99 {:.3} ms, max {:.3} ms ({} threads)",
            summary.time_ms.median, summary.time_ms.p99, summary.time_ms.max, summary.threads
        )?;
    }
    Ok(())
}

fn summarise(results: &[Deal], seed: u64, max_nodes: u64) -> Summary {
    let undecided = results.iter().filter(|d| d.winnable.is_none()).count() as u64;
    let n = results.len() as u64 - undecided;
    let winnable = results.iter().filter(|d| d.winnable == Some(true)).count() as u64;
    let mut tiles_left = BTreeMap::new();
    for d in results {
        if let Some(t) = d.tiles_left {
            *tiles_left.entry(t).or_insert(0) += 1;
        }
    }
    let mut ms: Vec<f64> = results.iter().map(|d| d.seconds * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    Summary {
        deals: results.len() as u64,
        first_seed: seed,
        winnable,
        undecided,
        max_nodes,
        fraction: if n == 0 {
            0.0
        } else {
            winnable as f64 / n as f64
        },
        ci95: wilson(winnable, n),
        tiles_left,
        time_ms: TimeMs {
            median: percentile(&ms, 0.5),
            p99: percentile(&ms, 0.99),
            max: ms.last().copied().unwrap_or(0.0),
        },
        threads: rayon::current_num_threads(),
    }
}

/// Wilson score interval for `k` successes in `n` trials, 95% (z = 1.96).
pub fn wilson(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (n, p, z) = (n as f64, k as f64 / n as f64, 1.959_963_984_540_054);
    let centre = p + z * z / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z * z / n;
    [
        ((centre - half) / denom).max(0.0),
        ((centre + half) / denom).min(1.0),
    ]
}

/// Nearest-rank percentile of sorted values.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// A hand-written SVG histogram of solver time per deal, on a log scale (decades from 10 µs).
fn time_histogram_svg(results: &[Deal]) -> String {
    const BINS_PER_DECADE: usize = 5;
    const DECADES: usize = 7; // 10 µs .. 100 s
    let nbins = BINS_PER_DECADE * DECADES;
    let mut counts = vec![0u64; nbins];
    for d in results {
        let x = (d.seconds * 1e6 / 10.0).max(1.0).log10() * BINS_PER_DECADE as f64;
        counts[(x as usize).min(nbins - 1)] += 1;
    }
    let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
    let (w, h, left, bottom) = (700.0, 300.0, 50.0, 40.0);
    let bw = (w - left - 10.0) / nbins as f64;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(svg, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="14" text-anchor="middle">Minijong solver time per deal ({} deals), log scale</text>"#,
        w / 2.0,
        results.len()
    );
    let plot_h = h - bottom - 25.0;
    for (i, &c) in counts.iter().enumerate() {
        let bh = c as f64 / top * plot_h;
        let x = left + i as f64 * bw;
        let _ = writeln!(
            svg,
            r##"<rect x="{x:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="#4a7ab5"><title>{c}</title></rect>"##,
            h - bottom - bh,
            bw - 1.0
        );
    }
    for (d, label) in ["10µs", "100µs", "1ms", "10ms", "100ms", "1s", "10s", "100s"]
        .iter()
        .enumerate()
    {
        let x = left + (d * BINS_PER_DECADE) as f64 * bw;
        let _ = writeln!(
            svg,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{label}</text>"#,
            h - bottom + 15.0
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="12" y="{:.1}" transform="rotate(-90 12 {:.1})">deals (max {top})</text>"#,
        h / 2.0,
        h / 2.0
    );
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_brackets_the_fraction() {
        let [lo, hi] = wilson(90, 100);
        assert!(lo < 0.9 && 0.9 < hi);
        assert!(
            (lo - 0.8256).abs() < 1e-3 && (hi - 0.9448).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0), [0.0, 1.0]);
    }

    #[test]
    fn percentile_is_nearest_rank() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&v, 0.5), 50.0);
        assert_eq!(percentile(&v, 0.99), 99.0);
        assert_eq!(percentile(&[3.0], 0.99), 3.0);
    }
}
