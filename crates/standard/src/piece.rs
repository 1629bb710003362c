//! The seven Standard Tetris pieces and their orientation sets (§5.3).

use std::fmt;

/// A piece kind, numbered as in §5.5: 1 O, 2 I, 3 S, 4 Z, 5 L, 6 J, 7 T.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// The box.
    O,
    /// The line.
    I,
    /// Step up.
    S,
    /// Step down.
    Z,
    /// L.
    L,
    /// J.
    J,
    /// T.
    T,
}

impl Piece {
    /// All kinds in Fahey's index order.
    pub const ALL: [Piece; 7] = [
        Piece::O,
        Piece::I,
        Piece::S,
        Piece::Z,
        Piece::L,
        Piece::J,
        Piece::T,
    ];

    /// Fahey's piece index, 1..=7.
    #[must_use]
    pub const fn index(self) -> u8 {
        self as u8 + 1
    }

    /// The piece for Fahey's index 1..=7.
    #[must_use]
    pub const fn from_index(index: u8) -> Option<Piece> {
        if index >= 1 && index <= 7 {
            Some(Self::ALL[index as usize - 1])
        } else {
            None
        }
    }

    /// The piece's letter name.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Piece::O => 'O',
            Piece::I => 'I',
            Piece::S => 'S',
            Piece::Z => 'Z',
            Piece::L => 'L',
            Piece::J => 'J',
            Piece::T => 'T',
        }
    }

    /// The piece named by a letter (upper case), if any.
    #[must_use]
    pub const fn from_letter(c: char) -> Option<Piece> {
        match c {
            'O' => Some(Piece::O),
            'I' => Some(Piece::I),
            'S' => Some(Piece::S),
            'Z' => Some(Piece::Z),
            'L' => Some(Piece::L),
            'J' => Some(Piece::J),
            'T' => Some(Piece::T),
            _ => None,
        }
    }

    /// How many distinct orientations counter-clockwise rotation cycles through: O 1; I, S, Z 2;
    /// L, J, T 4.
    #[must_use]
    pub const fn orientations(self) -> u8 {
        match self {
            Piece::O => 1,
            Piece::I | Piece::S | Piece::Z => 2,
            Piece::L | Piece::J | Piece::T => 4,
        }
    }

    /// The cells of one orientation (0-based, `orientation < self.orientations()`).
    #[must_use]
    pub const fn shape(self, orientation: u8) -> &'static Shape {
        &SHAPES[self as usize][orientation as usize % 4]
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Cell offsets (dx, dy) from the piece origin, y pointing up, for each kind and orientation, as in
/// Fahey's StandardTetris piece table (orientation 0 is the spawn orientation; each next one is the
/// result of a counter-clockwise rotation event, which for I, S and Z includes a translation).
const OFFSETS: [[[(i8, i8); 4]; 4]; 7] = [
    // O
    [
        [(-1, -1), (0, -1), (0, 0), (-1, 0)],
        [(-1, -1), (0, -1), (0, 0), (-1, 0)],
        [(-1, -1), (0, -1), (0, 0), (-1, 0)],
        [(-1, -1), (0, -1), (0, 0), (-1, 0)],
    ],
    // I
    [
        [(-2, 0), (-1, 0), (0, 0), (1, 0)],
        [(0, -2), (0, -1), (0, 0), (0, 1)],
        [(-2, 0), (-1, 0), (0, 0), (1, 0)],
        [(0, -2), (0, -1), (0, 0), (0, 1)],
    ],
    // S
    [
        [(-1, -1), (0, -1), (0, 0), (1, 0)],
        [(1, -1), (0, 0), (1, 0), (0, 1)],
        [(-1, -1), (0, -1), (0, 0), (1, 0)],
        [(1, -1), (0, 0), (1, 0), (0, 1)],
    ],
    // Z
    [
        [(0, -1), (1, -1), (-1, 0), (0, 0)],
        [(0, -1), (0, 0), (1, 0), (1, 1)],
        [(0, -1), (1, -1), (-1, 0), (0, 0)],
        [(0, -1), (0, 0), (1, 0), (1, 1)],
    ],
    // L
    [
        [(-1, -1), (-1, 0), (0, 0), (1, 0)],
        [(0, -1), (1, -1), (0, 0), (0, 1)],
        [(-1, 0), (0, 0), (1, 0), (1, 1)],
        [(0, -1), (0, 0), (-1, 1), (0, 1)],
    ],
    // J
    [
        [(1, -1), (-1, 0), (0, 0), (1, 0)],
        [(0, -1), (0, 0), (0, 1), (1, 1)],
        [(-1, 0), (0, 0), (1, 0), (-1, 1)],
        [(-1, -1), (0, -1), (0, 0), (0, 1)],
    ],
    // T
    [
        [(0, -1), (-1, 0), (0, 0), (1, 0)],
        [(0, -1), (0, 0), (1, 0), (0, 1)],
        [(-1, 0), (0, 0), (1, 0), (0, 1)],
        [(0, -1), (-1, 0), (0, 0), (0, 1)],
    ],
];

/// One orientation of one piece, precomputed for bitboard tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Cell offsets from the origin, y up.
    pub cells: [(i8, i8); 4],
    /// Leftmost cell offset.
    pub dx_min: i8,
    /// Rightmost cell offset.
    pub dx_max: i8,
    /// Lowest cell offset.
    pub dy_min: i8,
    /// Highest cell offset.
    pub dy_max: i8,
    /// Row masks from `dy_min` upward (index 0 = row `dy_min`); bit i = column `dx_min + i`.
    pub masks: [u16; 4],
}

impl Shape {
    /// Number of rows the shape spans.
    #[must_use]
    pub const fn rows(&self) -> usize {
        (self.dy_max - self.dy_min + 1) as usize
    }
}

const fn build_shape(cells: [(i8, i8); 4]) -> Shape {
    let mut dx_min = i8::MAX;
    let mut dx_max = i8::MIN;
    let mut dy_min = i8::MAX;
    let mut dy_max = i8::MIN;
    let mut i = 0;
    while i < 4 {
        let (dx, dy) = cells[i];
        if dx < dx_min {
            dx_min = dx;
        }
        if dx > dx_max {
            dx_max = dx;
        }
        if dy < dy_min {
            dy_min = dy;
        }
        if dy > dy_max {
            dy_max = dy;
        }
        i += 1;
    }
    let mut masks = [0u16; 4];
    let mut i = 0;
    while i < 4 {
        let (dx, dy) = cells[i];
        masks[(dy - dy_min) as usize] |= 1 << (dx - dx_min);
        i += 1;
    }
    Shape {
        cells,
        dx_min,
        dx_max,
        dy_min,
        dy_max,
        masks,
    }
}

const fn build_shapes() -> [[Shape; 4]; 7] {
    let empty = build_shape([(0, 0); 4]);
    let mut out = [[empty; 4]; 7];
    let mut k = 0;
    while k < 7 {
        let mut o = 0;
        while o < 4 {
            out[k][o] = build_shape(OFFSETS[k][o]);
            o += 1;
        }
        k += 1;
    }
    out
}

static SHAPES: [[Shape; 4]; 7] = build_shapes();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_letters_round_trip() {
        for (i, p) in Piece::ALL.iter().enumerate() {
            assert_eq!(p.index() as usize, i + 1);
            assert_eq!(Piece::from_index(p.index()), Some(*p));
            assert_eq!(Piece::from_letter(p.letter()), Some(*p));
        }
        assert_eq!(Piece::from_index(0), None);
        assert_eq!(Piece::from_index(8), None);
        assert_eq!(Piece::from_letter('X'), None);
    }

    #[test]
    fn every_orientation_has_four_distinct_cells() {
        for p in Piece::ALL {
            for o in 0..4 {
                let s = p.shape(o);
                let mut c = s.cells.to_vec();
                c.sort_unstable();
                c.dedup();
                assert_eq!(c.len(), 4, "{p} orientation {o}");
                let bits: u32 = s.masks.iter().map(|m| m.count_ones()).sum();
                assert_eq!(bits, 4);
            }
        }
    }

    #[test]
    fn orientation_cycle_repeats_with_the_stated_period() {
        // §5.3: O one orientation, I/S/Z two, L/J/T four distinct ones.
        for p in Piece::ALL {
            let n = p.orientations();
            let mut distinct: Vec<Vec<(i8, i8)>> = Vec::new();
            for o in 0..4 {
                let mut c = p.shape(o).cells.to_vec();
                c.sort_unstable();
                if !distinct.contains(&c) {
                    distinct.push(c);
                }
            }
            assert_eq!(distinct.len(), n as usize, "{p}");
            for o in 0..4u8 {
                assert_eq!(p.shape(o), p.shape(o % n), "{p} {o}");
            }
        }
    }

    #[test]
    fn spawn_orientation_fits_the_four_by_two_region() {
        // §5.5: every new piece lies in the 4 x 2 region left of, right of and below the origin.
        for p in Piece::ALL {
            let s = p.shape(0);
            assert!(s.dx_min >= -2 && s.dx_max <= 1, "{p}");
            assert!(s.dy_min >= -1 && s.dy_max <= 0, "{p}");
            // The major axis is horizontal.
            assert!(s.dx_max - s.dx_min >= s.dy_max - s.dy_min, "{p}");
        }
    }
}
