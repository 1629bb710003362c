//! Criterion benchmarks: dealing, and solving whole deals from the start.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use playfield_minijong::{Board, solve};

fn bench_deal(c: &mut Criterion) {
    c.bench_function("deal", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            black_box(Board::deal(seed))
        });
    });
}

fn bench_solve(c: &mut Criterion) {
    // A fixed rotation of 200 deals so the figure is a per-deal average over many deals.
    let boards: Vec<Board> = (0..200).map(Board::deal).collect();
    c.bench_function("solve deal (200-deal rotation)", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % boards.len();
            black_box(solve(&boards[i]))
        });
    });
}

criterion_group!(benches, bench_deal, bench_solve);
criterion_main!(benches);
