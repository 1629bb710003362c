//! Where pieces come from (§5.5, §6.2): a seeded uniform generator, the alternating S/Z sequence,
//! or a fixed sequence.

use crate::error::Error;
use crate::piece::Piece;

pub use playfield_rng::SplitMix64;

/// The seed of game `index` in a run started from `base`: independent of thread count and order.
#[must_use]
pub fn game_seed(base: u64, index: u64) -> u64 {
    let mut g = SplitMix64::new(base ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    g.next_u64()
}

/// A source of pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PieceSource {
    /// pieceIndex = 1 + (random % 7), from a seeded [`SplitMix64`].
    Random(SplitMix64),
    /// S, Z, S, Z, ... (§6.2: no game survives it).
    AlternatingSz {
        /// Whether the next piece is S.
        next_is_s: bool,
    },
    /// A fixed list; the game ends when it runs out.
    Fixed {
        /// The pieces.
        pieces: Vec<Piece>,
        /// Index of the next piece.
        position: usize,
    },
}

impl PieceSource {
    /// Uniform random pieces from `seed`.
    #[must_use]
    pub const fn random(seed: u64) -> Self {
        PieceSource::Random(SplitMix64::new(seed))
    }

    /// The alternating S/Z sequence, starting with S.
    #[must_use]
    pub const fn alternating_sz() -> Self {
        PieceSource::AlternatingSz { next_is_s: true }
    }

    /// A fixed sequence.
    #[must_use]
    pub const fn fixed(pieces: Vec<Piece>) -> Self {
        PieceSource::Fixed {
            pieces,
            position: 0,
        }
    }

    /// The next piece, or `None` when a fixed sequence has run out.
    pub fn next_piece(&mut self) -> Option<Piece> {
        match self {
            PieceSource::Random(rng) => {
                let index = 1 + (rng.next_u64() % 7) as u8;
                Piece::from_index(index)
            }
            PieceSource::AlternatingSz { next_is_s } => {
                let p = if *next_is_s { Piece::S } else { Piece::Z };
                *next_is_s = !*next_is_s;
                Some(p)
            }
            PieceSource::Fixed { pieces, position } => {
                let p = pieces.get(*position).copied();
                if p.is_some() {
                    *position += 1;
                }
                p
            }
        }
    }
}

/// Parses a piece sequence: the letters O I S Z L J T, whitespace ignored. `source_name` names the
/// text in errors (e.g. the file path).
///
/// # Errors
/// [`Error::PieceLetter`] with line and column for any other character; [`Error::NoPieces`] if
/// there are no letters at all.
pub fn parse_pieces(text: &str, source_name: &str) -> Result<Vec<Piece>, Error> {
    let mut out = Vec::new();
    for (l, line) in text.lines().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            if ch.is_whitespace() {
                continue;
            }
            match Piece::from_letter(ch) {
                Some(p) => out.push(p),
                None => {
                    return Err(Error::PieceLetter {
                        source_name: source_name.to_owned(),
                        line: l + 1,
                        column: c + 1,
                        found: ch,
                    });
                }
            }
        }
    }
    if out.is_empty() {
        return Err(Error::NoPieces(source_name.to_owned()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_source_is_uniform_and_seeded() {
        let mut a = PieceSource::random(7);
        let mut b = PieceSource::random(7);
        let mut counts = [0u32; 7];
        let n = 70_000;
        for _ in 0..n {
            let p = a.next_piece().unwrap();
            assert_eq!(Some(p), b.next_piece());
            counts[p as usize] += 1;
        }
        // §5.5: mean 10000, standard deviation ~93 per kind for 70000 pieces; allow 5 sigma.
        for c in counts {
            assert!((c as i64 - 10_000).abs() < 5 * 93, "{counts:?}");
        }
    }

    #[test]
    fn game_seeds_differ_by_index() {
        let s: Vec<u64> = (0..100).map(|i| game_seed(1, i)).collect();
        let mut d = s.clone();
        d.sort_unstable();
        d.dedup();
        assert_eq!(d.len(), 100);
        assert_eq!(game_seed(1, 5), s[5]);
    }

    #[test]
    fn alternating_s_and_z() {
        let mut s = PieceSource::alternating_sz();
        let seq: String = (0..6).map(|_| s.next_piece().unwrap().letter()).collect();
        assert_eq!(seq, "SZSZSZ");
    }

    #[test]
    fn fixed_sequence_runs_out() {
        let mut s = PieceSource::fixed(parse_pieces("O I\n S", "t").unwrap());
        assert_eq!(s.next_piece(), Some(Piece::O));
        assert_eq!(s.next_piece(), Some(Piece::I));
        assert_eq!(s.next_piece(), Some(Piece::S));
        assert_eq!(s.next_piece(), None);
        assert_eq!(s.next_piece(), None);
    }

    #[test]
    fn parse_errors_name_line_and_column() {
        let e = parse_pieces("OIS\nZL x", "seq.txt").unwrap_err();
        assert_eq!(
            e,
            Error::PieceLetter {
                source_name: "seq.txt".into(),
                line: 2,
                column: 4,
                found: 'x'
            }
        );
        assert!(e.to_string().starts_with("seq.txt:2:4:"));
        assert_eq!(
            parse_pieces(" \n\t", "e").unwrap_err(),
            Error::NoPieces("e".into())
        );
        assert!(
            parse_pieces("\u{feff}", "b")
                .unwrap_err()
                .to_string()
                .contains("b:1:1:")
        );
    }
}
