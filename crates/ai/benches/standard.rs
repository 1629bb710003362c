//! Standard Tetris player speed: pieces per second on one core.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use playfield_ai::standard::{Evaluator, MoveModel, Player, PlayerConfig};
use playfield_standard::{Board, Game, Piece, PieceSource};
use std::hint::black_box;

/// Lines per measured game: long enough to reach a typical mid-game pile, short enough that the
/// game is never lost (so every iteration plays the same pieces).
const LINES: u64 = 2_000;

fn bench_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("standard_game");
    group.sample_size(10);
    for (name, cfg) in [
        (
            "dellacherie_1_standard",
            PlayerConfig::new(Evaluator::Dellacherie, MoveModel::Standard),
        ),
        (
            "dellacherie_1_simplified",
            PlayerConfig::new(Evaluator::Dellacherie, MoveModel::Simplified),
        ),
        (
            "bcts_1_simplified",
            PlayerConfig::new(Evaluator::Bcts, MoveModel::Simplified),
        ),
        (
            "dellacherie_2_standard",
            PlayerConfig {
                lookahead: 2,
                ..PlayerConfig::new(Evaluator::Dellacherie, MoveModel::Standard)
            },
        ),
    ] {
        let player = Player::new(cfg);
        let lines = if cfg.lookahead == 2 {
            LINES / 10
        } else {
            LINES
        };
        let mut g = Game::new(20, 1, PieceSource::random(1)).unwrap();
        let pieces = player.play_game(&mut g, Some(lines)).unwrap().pieces;
        group.throughput(Throughput::Elements(pieces));
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut g = Game::new(20, 1, PieceSource::random(1)).unwrap();
                black_box(player.play_game(&mut g, Some(lines)).unwrap())
            });
        });
    }
    group.finish();
}

fn bench_choose(c: &mut Criterion) {
    // One decision on a fixed mid-game board.
    let rows = [0x3FE, 0x3DF, 0x1FF, 0x0F7, 0x03C];
    let board = Board::from_rows(20, &rows).unwrap();
    let player = Player::new(PlayerConfig::new(
        Evaluator::Dellacherie,
        MoveModel::Standard,
    ));
    c.bench_function("dellacherie_choose_T", |b| {
        b.iter(|| black_box(player.choose(black_box(&board), Piece::T, None)))
    });
}

criterion_group!(benches, bench_games, bench_choose);
criterion_main!(benches);
