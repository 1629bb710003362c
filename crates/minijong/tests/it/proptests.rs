//! Invariants under random input: no panic, tiles go two at a time, undo restores.

use playfield_minijong::{Direction, FireOutcome, Game};
use proptest::prelude::*;

#[derive(Debug, Clone, Copy)]
enum Input {
    Move(u8),
    Fire,
    Undo,
}

fn input() -> impl Strategy<Value = Input> {
    prop_oneof![
        4 => (0u8..4).prop_map(Input::Move),
        4 => Just(Input::Fire),
        1 => Just(Input::Undo),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_play_keeps_invariants(seed in any::<u64>(), inputs in prop::collection::vec(input(), 0..400)) {
        let mut g = Game::deal(seed);
        let mut snapshots = vec![*g.heights()];
        for i in inputs {
            let before = g.tiles_left();
            match i {
                Input::Move(d) => {
                    let dir = [Direction::Up, Direction::Down, Direction::Left, Direction::Right][d as usize];
                    g.move_cursor(dir);
                    prop_assert_eq!(g.tiles_left(), before);
                }
                Input::Fire => match g.fire() {
                    FireOutcome::Removed(_) => {
                        prop_assert_eq!(g.tiles_left(), before - 2);
                        snapshots.push(*g.heights());
                    }
                    _ => prop_assert_eq!(g.tiles_left(), before),
                },
                Input::Undo => {
                    if g.undo().is_some() {
                        snapshots.pop();
                        prop_assert_eq!(g.tiles_left(), before + 2);
                    }
                    prop_assert_eq!(g.heights(), snapshots.last().unwrap());
                }
            }
            let (r, c) = g.cursor();
            prop_assert!(r < 7 && c < 7);
            prop_assert_eq!(g.tiles_left() % 2, 1);
        }
    }

    #[test]
    fn legal_pairs_are_exactly_the_fire_removals(seed in any::<u64>(), steps in 0usize..30) {
        let mut g = Game::deal(seed);
        for k in 0..steps {
            let pairs = g.legal_pairs();
            prop_assert_eq!(pairs.is_empty(), g.is_over());
            let Some(&p) = pairs.get(k % pairs.len().max(1)) else { break };
            // Play it with the cursor and fire, as a player would.
            let (a, b) = (p.a.position(), p.b.position());
            g.set_cursor(a / 7, a % 7).unwrap();
            prop_assert_eq!(g.fire(), FireOutcome::Selected);
            g.set_cursor(b / 7, b % 7).unwrap();
            prop_assert_eq!(g.fire(), FireOutcome::Removed(p));
        }
    }
}
