//! Time of one sweep ([`Sweeper::search`]: every placement reachable under the input model, the
//! search behind the Python placement environment) at level 18 with 30 Hz input, on positions
//! taken from real games, for each input model the environment offers (DAS and soft drop, DAS
//! only, taps only), and the frame-exact searcher on the same positions for comparison.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use playfield_ai::nes::{GameConfig, InputModel, PieceState, Player, Searcher, Sweeper, play_game};
use playfield_nes::Nes;

/// Engine states at the first controllable frame of each piece of a birken game.
fn positions(start_level: u8, seed: u64, max: usize) -> Vec<Nes> {
    let player = Player::birken(InputModel::new("X.", true, 0).expect("valid"));
    let mut config = GameConfig::a_type(start_level, seed);
    config.max_lines = Some(60);
    let mut out = Vec::new();
    let mut was_active = false;
    play_game(&config, &player, |_, nes| {
        let active = nes.controllable();
        if active
            && !was_active
            && out.len() < max
            && nes
                .piece_state()
                .is_some_and(|p| (p.autorepeat_y as i8) >= 0)
        {
            out.push(nes.clone());
        }
        was_active = active;
        Ok(())
    });
    out
}

fn bench(c: &mut Criterion) {
    let states = positions(18, 3, 100);
    let models = [
        ("das+soft drop", true, true),
        ("das", true, false),
        ("taps", false, false),
    ];
    for (name, das, soft_drop) in models {
        let model = InputModel {
            soft_drop,
            ..InputModel::new("X.", das, 0).expect("valid")
        };
        let mut sweeper = Sweeper::new();
        let mut groups = 0usize;
        let mut placements = 0usize;
        for nes in &states {
            let start = PieceState::from_nes(nes, 0).expect("a piece");
            placements += sweeper
                .search(nes.playfield_page(), start, nes.level(), &model)
                .len();
            groups += sweeper.groups_visited();
        }
        println!(
            "sweep {name}: {} positions, {:.0} groups and {:.1} placements per search",
            states.len(),
            groups as f64 / states.len() as f64,
            placements as f64 / states.len() as f64
        );
        c.bench_function(&format!("sweep level 18 X. {name}"), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % states.len();
                let nes = &states[i];
                let start = PieceState::from_nes(nes, 0).expect("a piece");
                black_box(
                    sweeper
                        .search(nes.playfield_page(), start, nes.level(), &model)
                        .len(),
                )
            });
        });
        let mut searcher = Searcher::new();
        c.bench_function(&format!("searcher level 18 X. {name}"), |b| {
            let mut i = 0;
            b.iter(|| {
                i = (i + 1) % states.len();
                let nes = &states[i];
                let start = PieceState::from_nes(nes, 0).expect("a piece");
                black_box(
                    searcher
                        .search(nes.playfield_page(), start, nes.level(), &model)
                        .len(),
                )
            });
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
