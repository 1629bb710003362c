//! `playfield minijong ...` subcommands: play in the terminal, solve a deal, measure many deals.
//! (Minijong has no AI player to watch or bench: `solve` and `stats` are its solver's verbs.)

mod play;
mod solve;
mod stats;

use clap::Subcommand;

/// The `minijong` subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play in the terminal: arrows move (wrapping), Space/Enter fire, h hint, u undo, q quit.
    Play {
        /// Deal seed (default: from the clock; shown on screen).
        #[arg(long)]
        seed: Option<u64>,
        /// Deal only winnable boards (deal, solve, redeal with the next seed).
        #[arg(long)]
        solvable: bool,
    },
    /// Print a deal, whether it can be cleared, and a solution (or the best line).
    Solve {
        /// Deal seed.
        #[arg(long)]
        seed: u64,
        /// Print `{"seed","board","winnable","solution"}` as JSON.
        #[arg(long)]
        json: bool,
        /// Give up (exit 1) after this many search positions, 1 to 10^15 (default: search to the
        /// end).
        #[arg(long, value_parser = crate::checks::int(1u64, MAX_NODES))]
        max_nodes: Option<u64>,
    },
    /// Solve many deals in parallel: winnable fraction (95% CI) and solver time per deal.
    Stats {
        /// Number of deals (seeds S, S+1, ...), 1 to 10,000,000.
        #[arg(long, value_parser = crate::checks::int(1, crate::checks::MAX_DEALS))]
        deals: u64,
        /// First seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Print the results as JSON.
        #[arg(long)]
        json: bool,
        /// Also write an SVG histogram of solver time per deal to this file.
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<std::path::PathBuf>,
        /// Give up on a deal after this many search positions and count it as undecided
        /// (a few deals in a hundred thousand need minutes to prove unwinnable), 1 to 10^15.
        #[arg(long, default_value_t = 5_000_000, value_parser = crate::checks::int(1u64, MAX_NODES))]
        max_nodes: u64,
        /// Worker threads, 1 to 256 (default: one per core). Results other than times do not
        /// depend on it.
        #[arg(long, value_parser = crate::checks::int(1, crate::checks::MAX_THREADS))]
        threads: Option<usize>,
    },
}

/// The largest search budget accepted.
const MAX_NODES: u64 = 1_000_000_000_000_000;

/// Runs one `minijong` subcommand.
pub fn run(cmd: Command) -> anyhow::Result<()> {
    match cmd {
        Command::Play { seed, solvable } => play::run(seed, solvable),
        Command::Solve {
            seed,
            json,
            max_nodes,
        } => solve::run(seed, json, max_nodes),
        Command::Stats {
            deals,
            seed,
            json,
            plot,
            max_nodes,
            threads,
        } => stats::run(&stats::StatsRun {
            deals,
            seed,
            json,
            plot: plot.as_deref(),
            max_nodes,
            threads,
        }),
    }
}
