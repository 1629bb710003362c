//! Frames per second of tetanes-core running Tetris on `playfield_testkit::movies::benchmark_movie`,
//! the movie the engine's benchmark uses too, so the two compare as a ratio.
//!
//! `PLAYFIELD_ROM=… cargo bench -p playfield-rom --bench tetanes`. Without a ROM it prints that it
//! skipped. Each iteration is one input line; the movie restarts from power-on when it runs out.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use playfield_rom::{Emulator, rom_for_tests};
use playfield_testkit::movies::benchmark_movie;
use std::hint::black_box;
use std::time::{Duration, Instant};

fn tetanes(c: &mut Criterion) {
    let Some(rom) = rom_for_tests() else { return };
    let movie = benchmark_movie();
    let mut emulator = Emulator::new(&rom).expect("tetanes-core loads the ROM");

    // One plain pass over the whole movie first: the figure to put beside the engine's.
    let started = Instant::now();
    for &b in &movie.buttons {
        emulator.step(b).expect("the ROM runs");
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "tetanes-core: {} frames of {} in {elapsed:.2} s = {:.0} frames/s",
        movie.buttons.len(),
        movie.name,
        movie.buttons.len() as f64 / elapsed
    );

    emulator.power_on();
    let mut line = 0;
    let mut group = c.benchmark_group("tetanes");
    group
        .throughput(Throughput::Elements(1))
        .sample_size(20)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("frame", |b| {
        b.iter(|| {
            if line == movie.buttons.len() {
                emulator.power_on();
                line = 0;
            }
            emulator
                .step(black_box(movie.buttons[line]))
                .expect("the ROM runs");
            line += 1;
        });
    });
    group.finish();
}

criterion_group!(benches, tetanes);
criterion_main!(benches);
