//! Engine speed: frames per second replaying a long movie from power-on.
//!
//! The movie is made by the scripted player (`playfield_testkit::autoplay`): several games from level 9 with line
//! clears, level-ups, endings and the menus between games, so the measurement covers a realistic
//! mix of frames rather than an idle screen. `crates/rom/benches/tetanes.rs` runs the real ROM in
//! tetanes-core on the same movie for the ratio reported in the README.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use playfield_nes::{Buttons, GameSetup, Nes};
use playfield_testkit::autoplay::{AutoplayConfig, autoplay_movie};
use std::hint::black_box;

/// The benchmark movie, shared with the tetanes-core benchmark.
fn movie() -> Vec<Buttons> {
    autoplay_movie(&AutoplayConfig {
        setup: GameSetup::a_type(9),
        games: 20,
        max_frames: 200_000,
        seed: 3,
        ..AutoplayConfig::default()
    })
}

fn replay(c: &mut Criterion) {
    let input = movie();
    let mut group = c.benchmark_group("engine");
    group.throughput(Throughput::Elements(input.len() as u64));
    group.sample_size(20);
    group.bench_function("replay_autoplay_movie", |b| {
        b.iter(|| {
            let mut nes = Nes::power_on();
            for &buttons in &input {
                nes.step(black_box(buttons));
            }
            black_box(nes.score())
        });
    });
    group.finish();
}

criterion_group!(benches, replay);
criterion_main!(benches);
