//! Criterion benchmarks: dealing, and solving whole deals from the start.
//!
//! The solve benchmark rotates through deals 0..100, leaving out the few that the solver does not
//! decide within 1,000,000 positions (it names them), so one iteration is "solve one typical
//! deal"; `playfield minijong stats` gives the full distribution including the slow tail.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use playfield_minijong::{Board, solve, solve_limited};

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
    let mut boards = Vec::new();
    let mut left_out = Vec::new();
    for s in 0..100 {
        let b = Board::deal(s);
        if solve_limited(&b, &b.initial_heights(), 1_000_000).is_some() {
            boards.push((s, b));
        } else {
            left_out.push(s);
        }
    }
    eprintln!(
        "solve bench: {} deals, left out (undecided in 1M positions): {left_out:?}",
        boards.len()
    );
    c.bench_function("solve deal (rotation over deals 0..100)", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % boards.len();
            black_box(solve(&boards[i].1))
        });
    });
    // Deal 4: unwinnable; the proof needs the odd-tile bounds.
    let four = Board::deal(4);
    c.bench_function("solve deal 4 (unwinnable)", |b| {
        b.iter(|| black_box(solve(&four)))
    });
}

criterion_group!(benches, bench_deal, bench_solve);
criterion_main!(benches);
