//! The score player's decisions on the `nes_search` bench's positions (levels 18, 19 and 29,
//! 30 Hz, 18-frame reaction; both decisions of each piece: at spawn over the 7 possible
//! previews, and with the preview seen), hashed bit for bit (placement, buttons, value), with
//! the per-piece median and p99 time (one thread, wall clock). A change meant to make the search
//! faster without changing a decision must leave the hashes as they were.
//!
//! `cargo run --release -p playfield-ai --example decision_hash -- [--positions N] [LEVEL ...]`
//! (N positions per level, 120 by default, as the bench; the levels among 18, 19 and 29).

use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Instant;

use playfield_ai::nes::bench::decision_positions;
use playfield_ai::nes::{InputModel, PieceState, Player, Situation, Workspace};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut max = 120;
    let mut levels = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--positions" {
            max = args.next().ok_or("--positions needs a number")?.parse()?;
        } else {
            levels.push(arg.parse::<u8>()?);
        }
    }
    let player = Player::score(InputModel::new("X.", true, 18)?);
    for (start, level) in [(18u8, 18u8), (19, 19), (19, 29)] {
        if !levels.is_empty() && !levels.contains(&level) {
            continue;
        }
        let states = decision_positions(start, level, 3, max);
        let mut ws = Workspace::new();
        let mut hash = DefaultHasher::new();
        let mut times = Vec::new();
        for nes in &states {
            let situation = Situation::a_type(nes.level(), nes.line_count());
            let start = PieceState::from_nes(nes, 0).ok_or("no piece in play")?;
            let clock = Instant::now();
            for next in [None, nes.next_piece()] {
                if let Some(d) = player.decide(&mut ws, &nes.board(), start, situation, next) {
                    d.cost.to_bits().hash(&mut hash);
                    format!("{:?}", d.placement).hash(&mut hash);
                    d.inputs.len().hash(&mut hash);
                }
            }
            times.push(clock.elapsed().as_secs_f64() * 1e3);
        }
        if times.is_empty() {
            continue;
        }
        times.sort_by(f64::total_cmp);
        let at = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
        println!(
            "level {level}: {} pieces, decisions hash {:016x}, median {:.2} ms, p99 {:.2} ms",
            times.len(),
            hash.finish(),
            at(0.5),
            at(0.99)
        );
    }
    Ok(())
}
