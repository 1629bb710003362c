//! Property tests: any input sequence is safe, and landings keep the cell count.

use playfield_standard::{Game, Iteration, PieceSource, WIDTH};
use proptest::prelude::*;

proptest! {
    #[test]
    fn any_inputs_keep_the_rules(seed in any::<u64>(), height in 4usize..=24, level in 1u8..=10,
                                 inputs in proptest::collection::vec(0u8..5, 0..3000)) {
        let mut g = Game::new(height, level, PieceSource::random(seed)).unwrap();
        for i in inputs {
            let before = g.board().cell_count();
            let lines_before = g.lines();
            let landed = match i {
                0 => { g.left(); None }
                1 => { g.right(); None }
                2 => { g.rotate(); None }
                3 => g.drop(),
                _ => match g.iteration() {
                    Iteration::Landed(l) => Some(l),
                    _ => None,
                },
            };
            if let Some(l) = landed {
                prop_assert!(l.rows_completed <= 4);
                prop_assert_eq!(
                    before + 4,
                    g.board().cell_count() + l.rows_completed * WIDTH as u32
                );
                prop_assert_eq!(g.lines(), lines_before + u64::from(l.rows_completed));
            }
            // The falling piece never overlaps the pile or leaves the board.
            if let Some(p) = g.current() {
                prop_assert!(g.board().fits(p.shape(), p.x, p.y));
            }
            // No full row ever stays on the board.
            prop_assert!(g.board().rows().iter().all(|&r| r != playfield_standard::FULL_ROW));
        }
    }
}
