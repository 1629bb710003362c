//! Birken's features on hand-counted boards, and the lookahead's lock-and-clear against the
//! engine.

use playfield_ai::nes::eval::{board_features, lock_and_clear, lock_height};
use playfield_ai::nes::{GameConfig, InputModel, PieceState, Searcher, game};
use playfield_nes::tables::TILE_EMPTY;
use playfield_nes::{Events, PlayState};

fn board(cells: &[(usize, usize)]) -> [u8; 256] {
    let mut page = [TILE_EMPTY; 256];
    for &(x, y) in cells {
        page[y * 10 + x] = 0x7B;
    }
    page
}

#[test]
fn features_counted_by_hand() {
    // Row 19: columns 0-8; row 18: columns 0 and 2.
    let mut cells: Vec<(usize, usize)> = (0..9).map(|x| (x, 19)).collect();
    cells.extend([(0, 18), (2, 18)]);
    let f = board_features(&board(&cells));
    // Wells: column 1 at row 18 (between 0 and 2), column 9 at row 19 (column 8 and the wall).
    assert_eq!(f.well_cells, 2.0);
    assert_eq!(f.column_holes, 0.0);
    assert_eq!(f.column_transitions, 0.0);
    // Row 18: wall|F E F E…E|wall = 4 changes; row 19: F…F E|wall = 2.
    assert_eq!(f.row_transitions, 6.0);

    // A block on row 17 over an empty row-18 cell of column 5: one hole, two column changes,
    // and row 17 adds 4 row changes.
    cells.push((5, 17));
    let f = board_features(&board(&cells));
    assert_eq!(f.well_cells, 2.0);
    assert_eq!(f.column_holes, 1.0);
    assert_eq!(f.column_transitions, 2.0);
    assert_eq!(f.row_transitions, 10.0);
}

#[test]
fn lock_height_is_rows_to_the_floor() {
    // O ($0A) has minos on rows y and y+1.
    assert_eq!(lock_height(18, 0x0A), 0.0);
    assert_eq!(lock_height(10, 0x0A), 8.0);
}

#[test]
fn lock_and_clear_matches_the_engine() {
    let (mut nes, _) = game::start_game(&GameConfig::a_type(9, 5)).expect("menus reach play");
    // Rows 16-19 full except column 9; a few cells above so rows shift visibly.
    let mut cells: Vec<(usize, usize)> =
        (16..20).flat_map(|y| (0..9).map(move |x| (x, y))).collect();
    cells.extend([(3, 15), (4, 14), (7, 15)]);
    nes.raw_mut().playfield = board(&cells);
    nes.raw_mut().player1.current_piece = 0x11; // I vertical
    nes.raw_mut().player1.autorepeat_y = 0;
    let ram = nes.raw_mut();
    ram.player = ram.player1;
    let model = InputModel::new("X", true, 0).expect("valid");
    let mut searcher = Searcher::new();
    let start = PieceState::from_nes(&nes, 0).expect("a piece");
    let placements = searcher
        .search(nes.playfield_page(), start, 9, &model)
        .to_vec();
    assert!(placements.len() > 10);
    for p in &placements {
        let mut expected = *nes.playfield_page();
        let cleared = lock_and_clear(&mut expected, p.x, p.y, p.orientation);
        let mut e = nes.clone();
        for b in searcher.inputs(p) {
            e.step(b);
        }
        let mut lines = 0;
        for _ in 0..60 {
            let ev = e.step(playfield_nes::Buttons::NONE);
            if ev.has(Events::LINES_CLEARED) {
                lines = ev.lines_cleared;
            }
            if e.play_state() == PlayState::Spawn || ev.has(Events::SPAWN) {
                break;
            }
        }
        assert_eq!(cleared, lines, "placement {p:?}");
        assert_eq!(
            e.playfield_page()[..200],
            expected[..200],
            "placement {p:?}"
        );
    }
    // The tetris is among them.
    assert!(placements.iter().any(|p| p.x == 9 && p.orientation == 0x11));
}
