//! The board's geometry, the pool and the deal (seed lines "Set the length…", "fill the tile
//! pool…", "For each level… Pick a random spot within the pool…").
//!
//! Coordinates: a *slot* is one place a tile can be dealt to, given as (level, row, col) in that
//! level's own coordinates (level 0 is 7×7, level 1 is 5×5, level 2 is 3×3, each from its own
//! top-left). A *position* is one of the 49 cells of the 7×7 grid the player sees; level L's
//! (row, col) sits over position (row + L, col + L). Slots are numbered 0..83 in deal order
//! (level, then row, then column), which is also `B()`'s walk in the seed.

use crate::error::{Error, Result};
use crate::rng::Rng;

/// A tile face: the tile's screen code without the level bits (`byte & 63`), 1..=63. The seed's
/// pool uses 1..=21 (its characters 33..60 are glyphs; 21 faces are enough for 83 tiles). 0 means
/// "no tile" in a [`Board`].
pub type Face = u8;

/// Levels of the board.
pub const LEVELS: usize = 3;
/// Width and height of the grid the player sees (level 0).
pub const SIDE: usize = 7;
/// Positions on the 7×7 grid.
pub const POSITIONS: usize = SIDE * SIDE;
/// Slots on the board: 7×7 + 5×5 + 3×3 = 83, the seed's `L`.
pub const SLOTS: usize = 83;
/// Tiles per face in the pool ("up to 4 copies each").
pub const COPIES: usize = 4;
/// Faces in the seed's pool: 20 faces × 4 + one face × 3 = 83.
pub const POOL_FACES: usize = SLOTS.div_ceil(COPIES);

/// First slot number of each level.
const LEVEL_START: [usize; LEVELS] = [0, 49, 74];

/// Side of a level: 7, 5, 3.
#[must_use]
pub const fn level_side(level: usize) -> usize {
    SIDE - 2 * level
}

/// A slot: (level, row, col) in that level's own coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slot {
    /// 0 = 7×7 bottom, 1 = 5×5, 2 = 3×3 top.
    pub level: u8,
    /// Row within the level, from its top.
    pub row: u8,
    /// Column within the level, from its left.
    pub col: u8,
}

impl Slot {
    /// The slot at (level, row, col), checked.
    pub fn new(level: usize, row: usize, col: usize) -> Result<Self> {
        if level >= LEVELS || row >= level_side(level) || col >= level_side(level) {
            return Err(Error::SlotOutOfRange { level, row, col });
        }
        Ok(Self {
            level: level as u8,
            row: row as u8,
            col: col as u8,
        })
    }

    /// The slot with deal-order number `index` (0..83).
    #[must_use]
    pub fn from_index(index: usize) -> Option<Self> {
        if index >= SLOTS {
            return None;
        }
        let level = LEVEL_START.iter().rposition(|&s| s <= index)?;
        let side = level_side(level);
        let k = index - LEVEL_START[level];
        Some(Self {
            level: level as u8,
            row: (k / side) as u8,
            col: (k % side) as u8,
        })
    }

    /// Deal-order number of this slot (0..83).
    #[must_use]
    pub fn index(self) -> usize {
        let level = self.level as usize;
        LEVEL_START[level] + self.row as usize * level_side(level) + self.col as usize
    }

    /// The 7×7 position this slot sits over (0..49, row-major).
    #[must_use]
    pub fn position(self) -> usize {
        let l = self.level as usize;
        (self.row as usize + l) * SIDE + self.col as usize + l
    }

    /// The slot at `level` over 7×7 position `pos`, if that level covers it.
    #[must_use]
    pub fn at(pos: usize, level: usize) -> Option<Self> {
        if pos >= POSITIONS || level >= stack_depth(pos) {
            return None;
        }
        let (r, c) = (pos / SIDE, pos % SIDE);
        Some(Self {
            level: level as u8,
            row: (r - level) as u8,
            col: (c - level) as u8,
        })
    }

    /// `[level, row, col]`, the JSON form.
    #[must_use]
    pub fn to_array(self) -> [u8; 3] {
        [self.level, self.row, self.col]
    }
}

/// How many levels cover 7×7 position `pos`: 1 on the outer ring, 2 on the next, 3 in the centre.
#[must_use]
pub const fn stack_depth(pos: usize) -> usize {
    let (r, c) = (pos / SIDE, pos % SIDE);
    let edge = min(min(r, c), min(SIDE - 1 - r, SIDE - 1 - c));
    min(edge, LEVELS - 1) + 1
}

const fn min(a: usize, b: usize) -> usize {
    if a < b { a } else { b }
}

/// Slot number of the tile at `level` over position `pos` (caller guarantees it exists).
#[must_use]
pub(crate) const fn stack_slot(pos: usize, level: usize) -> usize {
    let (r, c) = (pos / SIDE, pos % SIDE);
    LEVEL_START[level] + (r - level) * level_side(level) + (c - level)
}

/// A dealt board: the face in every slot (the seed's `B()`), 0 where there is no tile. A full
/// deal has a tile in all 83 slots; smaller boards (tests, puzzles) leave some empty, but a tile
/// always rests on one below it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    faces: [Face; SLOTS],
}

impl Board {
    /// A board from faces in deal order (83 entries, 0 = empty), checked: faces 0..=63, no tile
    /// over an empty slot.
    pub fn from_faces(faces: &[Face]) -> Result<Self> {
        let faces: [Face; SLOTS] = faces.try_into().map_err(|_| Error::WrongSlotCount {
            expected: SLOTS,
            got: faces.len(),
        })?;
        for (i, &face) in faces.iter().enumerate() {
            if face > 63 {
                return Err(Error::BadFace { slot: i, face });
            }
            let slot = Slot::from_index(i).expect("i < SLOTS");
            if face != 0 && slot.level > 0 {
                let below = Slot::at(slot.position(), slot.level as usize - 1).expect("covered");
                if faces[below.index()] == 0 {
                    return Err(Error::Floating {
                        level: slot.level as usize,
                        row: slot.row as usize,
                        col: slot.col as usize,
                    });
                }
            }
        }
        Ok(Self { faces })
    }

    /// The seed's pool in fill order: up to 4 copies of each face, `C(I) = INT(I/4) + 1`, so faces
    /// 1..=20 four times and face 21 three times.
    #[must_use]
    pub fn pool() -> [Face; SLOTS] {
        std::array::from_fn(|i| (i / COPIES + 1) as Face)
    }

    /// Deals a board from `seed`, walking levels, rows, columns as the seed does: take pool entry
    /// `R = RAND(L)`, move the pool's last entry `C(L-1)` into the hole, shorten the pool.
    #[must_use]
    pub fn deal(seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let mut pool = Self::pool();
        let mut len = SLOTS;
        let mut faces = [0; SLOTS];
        // Slot numbers run in the seed's Z, Y, X order, so the walk is just 0..83.
        for face in &mut faces {
            let r = rng.rand(len as u64) as usize;
            *face = pool[r];
            pool[r] = pool[len - 1];
            len -= 1;
        }
        Self { faces }
    }

    /// Face in a slot, `None` when the slot has no tile.
    #[must_use]
    pub fn face(&self, slot: Slot) -> Option<Face> {
        match self.faces[slot.index()] {
            0 => None,
            f => Some(f),
        }
    }

    /// Faces in deal order (0 = empty).
    #[must_use]
    pub fn faces(&self) -> &[Face; SLOTS] {
        &self.faces
    }

    /// Face at slot number `index` (0 = empty); `index < 83`.
    #[must_use]
    pub(crate) fn face_at(&self, index: usize) -> Face {
        self.faces[index]
    }

    /// Tiles on the board.
    #[must_use]
    pub fn tile_count(&self) -> usize {
        self.faces.iter().filter(|&&f| f != 0).count()
    }

    /// How many tiles are stacked on each position at the start.
    #[must_use]
    pub fn initial_heights(&self) -> [u8; POSITIONS] {
        std::array::from_fn(|pos| {
            (0..stack_depth(pos))
                .take_while(|&l| self.faces[stack_slot(pos, l)] != 0)
                .count() as u8
        })
    }

    /// `board[level][row][col]`: face or `None`, each level from its own top-left (JSON form).
    #[must_use]
    pub fn levels(&self) -> Vec<Vec<Vec<Option<Face>>>> {
        (0..LEVELS)
            .map(|l| {
                let side = level_side(l);
                (0..side)
                    .map(|r| {
                        (0..side)
                            .map(|c| {
                                self.face(Slot {
                                    level: l as u8,
                                    row: r as u8,
                                    col: c as u8,
                                })
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_the_seed() {
        assert_eq!(SLOTS, 7 * 7 + 5 * 5 + 3 * 3);
        assert_eq!(POOL_FACES, 21);
        let depths: usize = (0..POSITIONS).map(stack_depth).sum();
        assert_eq!(depths, SLOTS);
        assert_eq!(stack_depth(0), 1);
        assert_eq!(stack_depth(8), 2);
        assert_eq!(stack_depth(3 * 7 + 3), 3);
    }

    #[test]
    fn slot_numbering_round_trips() {
        for i in 0..SLOTS {
            let s = Slot::from_index(i).unwrap();
            assert_eq!(s.index(), i);
            assert_eq!(Slot::at(s.position(), s.level as usize), Some(s));
            assert_eq!(stack_slot(s.position(), s.level as usize), i);
        }
        assert!(Slot::from_index(SLOTS).is_none());
        assert_eq!(Slot::new(1, 0, 0).unwrap().position(), 8);
        assert_eq!(Slot::new(2, 2, 2).unwrap().position(), 4 * 7 + 4);
        assert!(Slot::new(2, 3, 0).is_err());
        assert!(Slot::new(3, 0, 0).is_err());
    }

    #[test]
    fn pool_is_filled_in_order_four_copies_each() {
        let pool = Board::pool();
        assert_eq!(&pool[..9], &[1, 1, 1, 1, 2, 2, 2, 2, 3]);
        for f in 1..=20u8 {
            assert_eq!(pool.iter().filter(|&&x| x == f).count(), 4);
        }
        assert_eq!(pool.iter().filter(|&&x| x == 21).count(), 3);
    }

    #[test]
    fn deal_uses_the_whole_pool_and_is_reproducible() {
        let a = Board::deal(5);
        assert_eq!(a, Board::deal(5));
        assert_ne!(a, Board::deal(6));
        let mut dealt = a.faces().to_vec();
        dealt.sort_unstable();
        assert_eq!(dealt, Board::pool().to_vec());
        assert_eq!(a.tile_count(), 83);
    }

    #[test]
    fn deal_follows_the_pool_walk() {
        // Replay the walk by hand with the same random stream: R, take C(R), C(R) = C(L-1).
        let mut rng = Rng::new(99);
        let mut pool: Vec<Face> = Board::pool().to_vec();
        let mut expect = Vec::new();
        for _ in 0..SLOTS {
            let r = rng.rand(pool.len() as u64) as usize;
            expect.push(pool[r]);
            let last = pool.pop().unwrap();
            if r < pool.len() {
                pool[r] = last;
            }
        }
        assert_eq!(Board::deal(99).faces().to_vec(), expect);
    }

    #[test]
    fn bad_boards_are_errors() {
        assert!(matches!(
            Board::from_faces(&[1; 5]),
            Err(Error::WrongSlotCount { .. })
        ));
        let mut f = [0u8; SLOTS];
        f[Slot::new(1, 0, 0).unwrap().index()] = 3;
        assert!(matches!(
            Board::from_faces(&f),
            Err(Error::Floating { level: 1, .. })
        ));
        f = [0; SLOTS];
        f[0] = 64;
        assert!(matches!(
            Board::from_faces(&f),
            Err(Error::BadFace { slot: 0, face: 64 })
        ));
        f[0] = 5;
        assert_eq!(Board::from_faces(&f).unwrap().tile_count(), 1);
    }

    #[test]
    fn levels_view_is_indexed_per_level() {
        let b = Board::deal(1);
        let v = b.levels();
        assert_eq!(v.len(), 3);
        assert_eq!((v[0].len(), v[1].len(), v[2].len()), (7, 5, 3));
        assert_eq!(v[1][0][0], b.face(Slot::new(1, 0, 0).unwrap()));
        assert_eq!(v[2][2][1], Some(b.faces()[74 + 7]));
    }
}
