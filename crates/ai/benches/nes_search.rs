//! Decision time per piece of `birken` (search of the current piece × tap-only lookahead of the
//! preview) and of `score` (the same search, then the preview's drops — or, before the preview is
//! seen, every possible preview — and one piece deeper), at levels 18, 19 and 29 and at level 39
//! under the benchmark's double speed (two rows a frame), 30 Hz input, on positions taken from
//! real games. For `score` a piece costs two decisions: at spawn, before
//! the preview is seen (18-frame reaction), and again once it is; both are timed together.
//!
//! Criterion measures the mean over a fixed set of positions; the per-piece median and p99 are
//! printed separately (criterion reports means and medians of whole iterations, not per-item
//! percentiles).

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use playfield_ai::nes::bench::decision_positions;
use playfield_ai::nes::{Evaluator, InputModel, PieceState, Player, Situation, Workspace};
use playfield_nes::Nes;

fn decide(player: &Player, ws: &mut Workspace, nes: &Nes, double_speed: Option<u8>) -> f64 {
    let situation = Situation {
        double_speed_level: double_speed,
        ..Situation::a_type(nes.level(), nes.line_count())
    };
    let start = PieceState::from_nes(nes, 0).expect("a piece");
    let mut cost = 0.0;
    if player.input.reaction > 0 && matches!(player.evaluator, Evaluator::Score(_)) {
        cost += player
            .decide(ws, &nes.board(), start, situation, None)
            .map_or(f64::INFINITY, |d| d.cost);
    }
    cost + player
        .decide(ws, &nes.board(), start, situation, nes.next_piece())
        .map_or(f64::INFINITY, |d| d.cost)
}

fn bench(c: &mut Criterion) {
    let input = InputModel::new("X.", true, 18).expect("valid");
    let players = [Player::birken(input.clone()), Player::score(input)];
    // The last: BetaTetris's double speed, from level 39.
    for (start, level, double_speed) in [
        (18u8, 18u8, None),
        (19, 19, None),
        (19, 29, None),
        (19, 39, Some(39u8)),
    ] {
        let speed = if double_speed.is_some() {
            " double speed"
        } else {
            ""
        };
        let states = decision_positions(start, level, 3, 120);
        for player in &players {
            let mut ws = Workspace::new();
            // Per-piece percentiles, three passes.
            let mut times: Vec<f64> = Vec::new();
            for _ in 0..3 {
                for nes in &states {
                    let t = Instant::now();
                    black_box(decide(player, &mut ws, nes, double_speed));
                    times.push(t.elapsed().as_secs_f64() * 1e3);
                }
            }
            times.sort_by(f64::total_cmp);
            let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
            println!(
                "{} level {level}{speed}: {} pieces, median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                player.name,
                times.len(),
                pct(0.5),
                pct(0.99),
                pct(1.0)
            );
            c.bench_function(
                &format!("{} decision level {level}{speed} 30Hz", player.name),
                |b| {
                    let mut i = 0;
                    b.iter(|| {
                        i = (i + 1) % states.len();
                        black_box(decide(player, &mut ws, &states[i], double_speed))
                    });
                },
            );
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
