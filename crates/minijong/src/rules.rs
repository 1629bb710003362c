//! The free-tile rule and the legal pairs, on a compact position: how many tiles stand on each of
//! the 49 positions. Removal is always from the top of a stack, so the heights alone say which
//! tiles are left.

use crate::board::{Board, Face, POSITIONS, SIDE, Slot, stack_slot};

/// Tiles standing on each 7×7 position (row-major). The visible tile of position `p` is at level
/// `heights[p] - 1`; 0 means the position is empty (the seed's screen byte 0).
pub type Heights = [u8; POSITIONS];

/// Two tiles removed together, given by their slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pair {
    /// First tile (the one selected first).
    pub a: Slot,
    /// Second tile.
    pub b: Slot,
}

/// Level of the visible tile at `pos`, `None` when the position is empty.
#[must_use]
pub fn visible_level(heights: &Heights, pos: usize) -> Option<usize> {
    (heights[pos] as usize).checked_sub(1)
}

/// Face of the visible tile at `pos`, `None` when the position is empty.
#[must_use]
pub fn visible_face(board: &Board, heights: &Heights, pos: usize) -> Option<Face> {
    visible_level(heights, pos).map(|l| board.face_at(stack_slot(pos, l)))
}

/// The seed's free-tile rule for the visible tile at `pos`: it is free when the screen byte to its
/// left (`Q`) or to its right (`R`) is 0 (empty) or has level bits different from this tile's
/// (`C2`). Quirk kept: a neighbour on a *higher* level does not block either. Off the 7×7 grid the
/// screen is blank, so the edge columns always have an empty side. An empty position is not free.
#[must_use]
pub fn is_free(heights: &Heights, pos: usize) -> bool {
    let Some(level) = visible_level(heights, pos) else {
        return false;
    };
    let col = pos % SIDE;
    let open = |n: Option<usize>| match n {
        None => true,
        Some(n) => visible_level(heights, n) != Some(level),
    };
    let left = (col > 0).then(|| pos - 1);
    let right = (col + 1 < SIDE).then(|| pos + 1);
    open(left) || open(right)
}

/// Why two positions cannot be removed together, `None` when they can: both show a tile, they are
/// different positions, both free, same face (level does not matter).
#[must_use]
pub fn pair_problem(board: &Board, heights: &Heights, a: usize, b: usize) -> Option<&'static str> {
    if a >= POSITIONS || b >= POSITIONS {
        return Some("position outside the 7×7 grid");
    }
    if a == b {
        return Some("both tiles are the same tile");
    }
    let (Some(fa), Some(fb)) = (
        visible_face(board, heights, a),
        visible_face(board, heights, b),
    ) else {
        return Some("an empty position has no tile");
    };
    if !is_free(heights, a) || !is_free(heights, b) {
        return Some("a tile is not free");
    }
    if fa != fb {
        return Some("the faces differ");
    }
    None
}

/// Visible slot at `pos` (caller guarantees a tile is there).
#[must_use]
pub(crate) fn top_slot(heights: &Heights, pos: usize) -> Slot {
    Slot::at(pos, heights[pos] as usize - 1).expect("a tile stands here")
}

/// Every legal pair in this position, each once (`a` before `b` in row-major order).
#[must_use]
pub fn legal_pairs(board: &Board, heights: &Heights) -> Vec<Pair> {
    let free: Vec<(usize, Face)> = (0..POSITIONS)
        .filter(|&p| is_free(heights, p))
        .map(|p| {
            (
                p,
                visible_face(board, heights, p).expect("free implies a tile"),
            )
        })
        .collect();
    let mut pairs = Vec::new();
    for (i, &(pa, fa)) in free.iter().enumerate() {
        for &(pb, fb) in &free[i + 1..] {
            if fa == fb {
                pairs.push(Pair {
                    a: top_slot(heights, pa),
                    b: top_slot(heights, pb),
                });
            }
        }
    }
    pairs
}

/// Whether any legal pair is left ("the game knows when it has ended").
#[must_use]
pub fn has_pair(board: &Board, heights: &Heights) -> bool {
    let mut seen = [false; 64];
    for p in 0..POSITIONS {
        if is_free(heights, p) {
            let f = visible_face(board, heights, p).expect("free implies a tile") as usize;
            if seen[f] {
                return true;
            }
            seen[f] = true;
        }
    }
    false
}

/// Tiles left in this position.
#[must_use]
pub fn tiles_left(heights: &Heights) -> usize {
    heights.iter().map(|&h| h as usize).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(r: usize, c: usize) -> usize {
        r * SIDE + c
    }

    #[test]
    fn edge_columns_are_always_free() {
        let h = Board::deal(3).initial_heights();
        for r in 0..SIDE {
            assert!(is_free(&h, at(r, 0)));
            assert!(is_free(&h, at(r, 6)));
        }
    }

    #[test]
    fn full_board_free_tiles_follow_the_levels() {
        // Row 3 of the full board shows levels 0 1 2 2 2 1 0: only the centre 2 has same-level
        // neighbours on both sides. Row 0 is all level 0: only its ends are free.
        let h = Board::deal(3).initial_heights();
        let row3: Vec<bool> = (0..7).map(|c| is_free(&h, at(3, c))).collect();
        assert_eq!(row3, [true, true, true, false, true, true, true]);
        let row0: Vec<bool> = (0..7).map(|c| is_free(&h, at(0, c))).collect();
        assert_eq!(row0, [true, false, false, false, false, false, true]);
        let row1: Vec<bool> = (0..7).map(|c| is_free(&h, at(1, c))).collect();
        assert_eq!(row1, [true, true, false, false, false, true, true]);
    }

    #[test]
    fn same_level_on_both_sides_blocks() {
        let mut h = [0u8; POSITIONS];
        h[at(0, 0)] = 1;
        h[at(0, 1)] = 1;
        h[at(0, 2)] = 1;
        assert!(!is_free(&h, at(0, 1)));
        // An empty side frees it.
        h[at(0, 2)] = 0;
        assert!(is_free(&h, at(0, 1)));
    }

    #[test]
    fn lower_neighbour_does_not_block() {
        let mut h = [1u8; POSITIONS];
        h[at(2, 3)] = 2; // a level-1 tile between level-0 tiles
        assert!(is_free(&h, at(2, 3)));
    }

    #[test]
    fn taller_neighbour_does_not_block_the_quirk() {
        // Level-0 tile at (0,3) between level-1 stacks... use row 2: (2,2) level 0 between (2,1)
        // and (2,3) both level 1: the seed compares level bits only, so it is free.
        let mut h = [1u8; POSITIONS];
        h[at(2, 1)] = 2;
        h[at(2, 3)] = 2;
        assert!(is_free(&h, at(2, 2)));
        // The same tile between two level-0 tiles is blocked.
        h[at(2, 1)] = 1;
        h[at(2, 3)] = 1;
        assert!(!is_free(&h, at(2, 2)));
    }

    #[test]
    fn empty_position_is_not_free_and_pairs_need_same_face() {
        let mut faces = [0u8; 83];
        faces[0] = 1; // (0,0)
        faces[6] = 1; // (0,6)
        faces[1] = 2; // (0,1)
        let b = Board::from_faces(&faces).unwrap();
        let h = b.initial_heights();
        assert!(!is_free(&h, at(0, 3)));
        assert_eq!(pair_problem(&b, &h, 0, 6), None);
        assert_eq!(pair_problem(&b, &h, 0, 1), Some("the faces differ"));
        assert_eq!(
            pair_problem(&b, &h, 0, 0),
            Some("both tiles are the same tile")
        );
        assert_eq!(
            pair_problem(&b, &h, 0, 3),
            Some("an empty position has no tile")
        );
        assert_eq!(legal_pairs(&b, &h).len(), 1);
        assert!(has_pair(&b, &h));
    }
}
