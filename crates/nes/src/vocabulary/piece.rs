//! Tetriminoes and their orientations, typed over the ROM's orientation ids.

use crate::tables::{ORIENTATIONS, ROTATION_TABLE, SPAWN_TABLE, TETRIMINO_TYPE_FROM_ORIENTATION};

/// The seven tetriminoes, in the ROM's order (`tetriminoTypeFromOrientation`: T J Z O S L I).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// T.
    T,
    /// J.
    J,
    /// Z.
    Z,
    /// O.
    O,
    /// S.
    S,
    /// L.
    L,
    /// I.
    I,
}

impl Piece {
    /// Every piece, in the ROM's order.
    pub const ALL: [Piece; 7] = [
        Piece::T,
        Piece::J,
        Piece::Z,
        Piece::O,
        Piece::S,
        Piece::L,
        Piece::I,
    ];

    /// The piece's index in the ROM's order (0 T … 6 I), as `statsByType` and `spawnTable` use it.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece with this index (0 T … 6 I).
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Piece> {
        if index < 7 {
            Some(Piece::ALL[index])
        } else {
            None
        }
    }

    /// The piece an orientation id ($00-$12) belongs to; `None` for `hidden` ($13) and above.
    #[must_use]
    pub fn from_orientation_id(id: u8) -> Option<Piece> {
        let kind = *TETRIMINO_TYPE_FROM_ORIENTATION.get(usize::from(id))?;
        Piece::from_index(usize::from(kind))
    }

    /// The orientation the piece spawns in (`spawnTable`).
    #[must_use]
    pub const fn spawn_orientation(self) -> Orientation {
        Orientation(SPAWN_TABLE[self as usize])
    }

    /// The piece's letter.
    #[must_use]
    pub const fn letter(self) -> char {
        ['T', 'J', 'Z', 'O', 'S', 'L', 'I'][self as usize]
    }
}

impl std::fmt::Display for Piece {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One of the 19 orientations, by the ROM's orientation id ($00 `tUp` … $12 `iHoriz`), the value
/// `currentPiece` and `nextPiece` hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Orientation(u8);

impl Orientation {
    /// The orientation with this id; `None` for `hidden` ($13) and above.
    #[must_use]
    pub const fn from_id(id: u8) -> Option<Orientation> {
        if id < 19 { Some(Orientation(id)) } else { None }
    }

    /// The ROM's orientation id.
    #[must_use]
    pub const fn id(self) -> u8 {
        self.0
    }

    /// The piece this orientation belongs to.
    #[must_use]
    pub const fn piece(self) -> Piece {
        Piece::ALL[TETRIMINO_TYPE_FROM_ORIENTATION[self.0 as usize] as usize]
    }

    /// The orientation after an A press (clockwise), as `rotationTable` gives it.
    #[must_use]
    pub const fn clockwise(self) -> Orientation {
        Orientation(ROTATION_TABLE[self.0 as usize][1])
    }

    /// The orientation after a B press (counter-clockwise).
    #[must_use]
    pub const fn counter_clockwise(self) -> Orientation {
        Orientation(ROTATION_TABLE[self.0 as usize][0])
    }

    /// The four minos as (column, row) offsets from the piece's centre (`orientationTable`).
    #[must_use]
    pub fn offsets(self) -> [(i8, i8); 4] {
        ORIENTATIONS[usize::from(self.0)].map(|m| (m.dx, m.dy))
    }
}

/// The falling piece: its orientation and the centre's column and row (`tetriminoX`,
/// `tetriminoY`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ActivePiece {
    /// `currentPiece`.
    pub orientation: Orientation,
    /// `tetriminoX`: the centre's column, 0-9.
    pub x: u8,
    /// `tetriminoY`: the centre's row, 0-19 (rows −2 and −1 are above the field).
    pub y: u8,
}

impl ActivePiece {
    /// The piece type.
    #[must_use]
    pub const fn piece(self) -> Piece {
        self.orientation.piece()
    }

    /// The four cells as (column, row) on the field; a row may be −1 or −2 (above the field).
    #[must_use]
    pub fn cells(self) -> [(i8, i8); 4] {
        self.orientation
            .offsets()
            .map(|(dx, dy)| (self.x as i8 + dx, self.y as i8 + dy))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_spawns_in_its_own_orientation() {
        for piece in Piece::ALL {
            assert_eq!(piece.spawn_orientation().piece(), piece);
            assert_eq!(Piece::from_index(piece.index()), Some(piece));
        }
        assert_eq!(Piece::from_orientation_id(0x13), None);
    }

    #[test]
    fn four_clockwise_turns_come_back() {
        for id in 0..19 {
            let o = Orientation::from_id(id).unwrap();
            let back = o.clockwise().clockwise().clockwise().clockwise();
            assert_eq!(back, o);
            assert_eq!(o.clockwise().counter_clockwise(), o);
        }
    }
}
