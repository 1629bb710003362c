//! The solver against a plain brute-force search (every legal pair, every order, no memo, no
//! bounds) on small boards and on positions from random deals, and solutions replayed through the
//! rules on whole deals.

use playfield_minijong::board::{POSITIONS, SLOTS};
use playfield_minijong::rng::Rng;
use playfield_minijong::rules::{Heights, legal_pairs, tiles_left};
use playfield_minijong::{Board, Game, Slot, solve, solve_from};

/// Most pairs removable from `h`, by trying everything.
fn brute(board: &Board, h: &mut Heights) -> usize {
    let mut best = 0;
    for p in legal_pairs(board, h) {
        h[p.a.position()] -= 1;
        h[p.b.position()] -= 1;
        best = best.max(1 + brute(board, h));
        h[p.a.position()] += 1;
        h[p.b.position()] += 1;
    }
    best
}

/// A random small board: `n` tiles, each on an empty slot whose support is there, faces from
/// `1..=kinds` (any counts, odd ones too).
fn small_board(rng: &mut Rng, n: usize, kinds: u64) -> Board {
    let mut faces = [0u8; SLOTS];
    let mut placed = 0;
    while placed < n {
        let slot = Slot::from_index(rng.rand(SLOTS as u64) as usize).unwrap();
        if faces[slot.index()] != 0 {
            continue;
        }
        let supported = slot.level == 0
            || faces[Slot::at(slot.position(), slot.level as usize - 1)
                .unwrap()
                .index()]
                != 0;
        // Mostly cluster on a few rows so tiles block each other.
        if supported && (slot.position() / 7 <= 2 || rng.rand(4) == 0) {
            faces[slot.index()] = 1 + rng.rand(kinds) as u8;
            placed += 1;
        }
    }
    Board::from_faces(&faces).unwrap()
}

fn check(board: &Board, h: &Heights, what: &str) {
    let want = brute(board, &mut h.clone());
    let sol = solve_from(board, h);
    assert_eq!(sol.moves.len(), want, "{what}: solver pairs vs brute force");
    assert_eq!(sol.tiles_left, tiles_left(h) - 2 * want, "{what}");
    assert_eq!(sol.winnable, tiles_left(h) - 2 * want <= 1, "{what}");
    // The line is legal and ends where it says (replayed on the heights: a Game starts full).
    let mut hh = *h;
    for p in &sol.moves {
        let pairs = legal_pairs(board, &hh);
        assert!(
            pairs
                .iter()
                .any(|q| (q.a, q.b) == (p.a, p.b) || (q.a, q.b) == (p.b, p.a)),
            "{what}: illegal {p:?}"
        );
        hh[p.a.position()] -= 1;
        hh[p.b.position()] -= 1;
    }
    assert!(
        legal_pairs(board, &hh).is_empty(),
        "{what}: the line ends with no pair left"
    );
}

#[test]
fn small_boards_agree_with_brute_force() {
    let mut rng = Rng::new(2026);
    for case in 0..400 {
        let n = 4 + rng.rand(9) as usize; // 4..=12 tiles
        let kinds = 2 + rng.rand(3); // 2..=4 faces
        let board = small_board(&mut rng, n, kinds);
        check(
            &board,
            &board.initial_heights(),
            &format!("small board {case}"),
        );
    }
}

#[test]
fn random_deal_endgames_agree_with_brute_force() {
    let mut rng = Rng::new(7);
    for seed in 0..60u64 {
        let mut g = Game::deal(seed);
        // Random legal play down to at most 12 tiles (or until stuck).
        while g.tiles_left() > 12 {
            let pairs = g.legal_pairs();
            if pairs.is_empty() {
                break;
            }
            let p = pairs[rng.rand(pairs.len() as u64) as usize];
            g.play(p).unwrap();
        }
        check(
            g.board(),
            g.heights(),
            &format!("deal {seed} at {} tiles", g.tiles_left()),
        );
    }
}

#[test]
fn whole_deals_replay_and_end_as_claimed() {
    let mut winnable = 0;
    for seed in 100..160u64 {
        let board = Board::deal(seed);
        let sol = solve(&board);
        let mut g = Game::new(board);
        for &p in &sol.moves {
            g.play(p).unwrap();
        }
        assert!(g.is_over(), "seed {seed}");
        assert_eq!(g.tiles_left(), sol.tiles_left, "seed {seed}");
        assert_eq!(sol.winnable, g.tiles_left() == 1, "seed {seed}");
        winnable += usize::from(sol.winnable);
    }
    // Most random deals are winnable; some are not (the seed's deal does not guarantee it).
    assert!(winnable > 30, "{winnable}");
    assert_eq!(POSITIONS, 49);
}

#[test]
fn hint_keeps_a_winnable_game_winnable() {
    for seed in 0..20u64 {
        let mut g = Game::deal(seed);
        if !solve(g.board()).winnable {
            continue;
        }
        // Follow hints only: the game must clear.
        while let Some(p) = g.hint() {
            g.play(p).unwrap();
        }
        assert!(
            g.is_cleared(),
            "seed {seed}: hints led to {} tiles",
            g.tiles_left()
        );
    }
}
