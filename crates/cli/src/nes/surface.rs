//! `playfield nes surface`: computes the surface table (value iteration over the height
//! differences of columns 1-9) and writes it, with what it cost.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use playfield_ai::nes::surface::{
    DEFAULT_CLAMP, DEFAULT_DISCOUNT, DEFAULT_TOLERANCE, SurfaceTable,
};

use crate::checks::{int, real};
use crate::files::OutputFile;
use crate::output::Out;

/// Arguments of `nes surface`.
#[derive(Debug, Args)]
pub struct SurfaceArgs {
    /// Height differences are clamped to -C..=C, 1 to 4 (states: (2C+1)^8).
    #[arg(long, value_name = "C", default_value_t = DEFAULT_CLAMP, value_parser = int(1u8, 4))]
    clamp: u8,
    /// The discount γ of each further piece, 0 to 0.99.
    #[arg(long, value_name = "G", default_value_t = DEFAULT_DISCOUNT, value_parser = real(0.0, 0.99))]
    discount: f64,
    /// Stop when a sweep changes no value by more than this.
    #[arg(long, value_name = "T", default_value_t = DEFAULT_TOLERANCE, value_parser = real(1e-12, 1.0))]
    tolerance: f64,
    /// Where to write the table (binary: a PFSURF1 header, then little-endian f32 values).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Runs `nes surface`.
pub fn run(args: &SurfaceArgs) -> Result<()> {
    let file = args
        .out
        .as_ref()
        .map(|p| OutputFile::create(p, "--out"))
        .transpose()?;
    let clock = std::time::Instant::now();
    let table = SurfaceTable::compute(args.clamp, args.discount, args.tolerance, 10_000);
    let seconds = clock.elapsed().as_secs_f64();
    let mut out = Out::new();
    out.line(format!(
        "clamp {}, discount {}: {} states, {} sweeps, last change {:.2e}, {:.1} s ({} cores available)",
        table.clamp,
        table.discount,
        table.values.len(),
        table.sweeps,
        table.residual,
        seconds,
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    ))?;
    for (name, heights) in [
        ("flat", [4u8, 4, 4, 4, 4, 4, 4, 4, 4, 0]),
        ("one step", [4, 4, 4, 4, 5, 5, 5, 5, 5, 0]),
        ("two-deep hole at column 1", [2, 4, 4, 4, 4, 4, 4, 4, 4, 0]),
        ("alternating", [4, 5, 4, 5, 4, 5, 4, 5, 4, 0]),
    ] {
        out.line(format!("  {name:<28} {:.4}", table.value(&heights)))?;
    }
    if let Some(file) = file {
        file.commit_bytes(&table.to_bytes())?;
    }
    out.flush()?;
    Ok(())
}
