//! Saved positions and the short segments played from them: the tuning's objective at each band
//! of a game (level 18 from the start, levels 19-28 from 130 lines, 29-38 from 230, double speed
//! from 330) without playing the whole game up to it.
//!
//! A position is a game's seed and its frames' buttons from power-on up to a frame where the
//! player holds no plan (a piece has locked, the next is not yet under control): replaying them
//! gives the engine's state exactly, and from there [`continue_game`] plays what
//! [`super::game::play_game`] would. The positions are reached by the player that made them, on
//! the benchmark's seeds (never the held-out games' level-menu waits).

use std::sync::Arc;

use playfield_nes::{Buttons, GameMode, Modifiers, Nes, PlayState};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::bench::BenchOptions;
use super::game::{
    GameConfig, GameEnd, PieceDealer, continue_game, continue_game_dealt, game_seed, play_game,
};
use super::player::Player;

/// The lines at which the bands of the BetaTetris format start: level 18, levels 19-28, levels
/// 29-38, double speed.
pub const BANDS: [u32; 4] = [0, 130, 230, 330];

/// The most frames a position's input may hold: some 27 times the longest the benchmark's
/// games take to reach the double-speed band (about 37,500), so that a damaged or hand-made
/// file is refused before its replay takes hours and gigabytes.
pub const MOST_FRAMES: u64 = 1_000_000;

/// One saved position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// The band's first line ([`BANDS`]) the position was cut for.
    pub band: u32,
    /// The game's seed ([`GameConfig::seed`]).
    pub seed: u64,
    /// Lines at the position.
    pub lines: u32,
    /// Uncapped score at the position.
    pub score: u64,
    /// The frames' buttons from power-on, run-length coded: (buttons, frames) pairs.
    pub input: Vec<(u8, u32)>,
}

/// A file of positions: the options of the games they come from, and how they were made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionFile {
    /// Start level.
    pub level: u8,
    /// Input timeline.
    pub timeline: String,
    /// Reaction frames.
    pub reaction: u32,
    /// Whether the player holds into autorepeat.
    pub das: bool,
    /// The double-speed level, if on.
    pub double_speed_level: Option<u8>,
    /// The games' line cap, if any.
    pub line_cap: Option<u32>,
    /// How the file was made (the command line), for the record.
    pub made_by: String,
    /// The positions, band by band.
    pub positions: Vec<Position>,
}

/// Positions that cannot be used.
#[derive(Debug, Error)]
pub enum SegmentError {
    /// Not a position file.
    #[error("bad position file: {0}")]
    Parse(String),
    /// Made for other game options than the tuning's.
    #[error("the positions were made for other game options ({made}) than the tuning's ({wanted})")]
    Options {
        /// The file's.
        made: String,
        /// The tuning's.
        wanted: String,
    },
    /// A position's input does not reach a state where a segment can start.
    #[error(
        "position of seed {seed} (band {band}): its input does not end in play between pieces at \
         the position's lines and score"
    )]
    NotBetweenPieces {
        /// Its seed.
        seed: u64,
        /// Its band.
        band: u32,
    },
}

/// The options as a short text, for comparing and for messages.
fn options_text(o: &BenchOptions) -> String {
    format!(
        "level {}, timeline {}, reaction {}, das {}, double speed {:?}, line cap {:?}",
        o.level, o.timeline, o.reaction, o.das, o.double_speed_level, o.line_cap
    )
}

impl PositionFile {
    /// A file of `positions` from `options`' games, made by `made_by`.
    #[must_use]
    pub fn new(options: &BenchOptions, made_by: String, positions: Vec<Position>) -> PositionFile {
        PositionFile {
            level: options.level,
            timeline: options.timeline.clone(),
            reaction: options.reaction,
            das: options.das,
            double_speed_level: options.double_speed_level,
            line_cap: options.line_cap,
            made_by,
            positions,
        }
    }

    /// The options the positions were made with.
    #[must_use]
    pub fn options(&self) -> BenchOptions {
        BenchOptions {
            level: self.level,
            timeline: self.timeline.clone(),
            reaction: self.reaction,
            das: self.das,
            double_speed_level: self.double_speed_level,
            line_cap: self.line_cap,
            uncapped: true,
        }
    }

    /// Parses a position file and checks that it was made for `options`' games, and that each
    /// position names one of the [`BANDS`] and holds at most [`MOST_FRAMES`] frames.
    ///
    /// # Errors
    /// When the text is not a position file (a key given twice included), its options differ,
    /// or a position's band or input cannot be one [`cut_positions`] cuts.
    pub fn parse(text: &str, options: &BenchOptions) -> Result<PositionFile, SegmentError> {
        crate::json::check_unique_keys(text).map_err(|e| SegmentError::Parse(e.to_string()))?;
        let file: PositionFile =
            serde_json::from_str(text).map_err(|e| SegmentError::Parse(e.to_string()))?;
        let (made, wanted) = (options_text(&file.options()), options_text(options));
        if made != wanted {
            return Err(SegmentError::Options { made, wanted });
        }
        for (i, p) in file.positions.iter().enumerate() {
            if !BANDS.contains(&p.band) {
                return Err(SegmentError::Parse(format!(
                    "position {i} (seed {}): band {} is not one of the bands' first lines {BANDS:?}",
                    p.seed, p.band
                )));
            }
            let frames = p
                .input
                .iter()
                .try_fold(0u64, |sum, &(_, n)| sum.checked_add(u64::from(n)));
            if frames.is_none_or(|f| f > MOST_FRAMES) {
                return Err(SegmentError::Parse(format!(
                    "position {i} (seed {}): its input runs past {MOST_FRAMES} frames, \
                     far beyond any game to the last band",
                    p.seed
                )));
            }
        }
        Ok(file)
    }
}

/// Run-length codes a movie.
fn encode(input: &[Buttons]) -> Vec<(u8, u32)> {
    let mut out: Vec<(u8, u32)> = Vec::new();
    for b in input {
        match out.last_mut() {
            Some((last, n)) if *last == b.bits() => *n += 1,
            _ => out.push((b.bits(), 1)),
        }
    }
    out
}

/// Whether `nes` is in play between two pieces: a piece has locked and the next is not under
/// control, so [`super::game::play_game`] holds no plan there.
fn between_pieces(nes: &Nes) -> bool {
    nes.game_mode() == GameMode::Play
        && nes.play_state() != PlayState::Active
        && !nes.controllable()
}

/// The engine of `options`' games at power-on.
fn power_on(options: &BenchOptions) -> Nes {
    let mut nes = Nes::power_on();
    nes.set_modifiers(Modifiers {
        double_speed_level: options.double_speed_level,
        ..Modifiers::default()
    });
    nes
}

/// Plays game `seed` with `player` and cuts a position at the first frame between pieces from
/// each band's first line on (band 0: after the first piece). Bands the game does not reach
/// have no position.
#[must_use]
pub fn cut_positions(options: &BenchOptions, seed: u64, player: &Player) -> Vec<Position> {
    let config = GameConfig {
        seed,
        ..options.game()
    };
    let game = play_game(&config, player, |_, _| Ok(()));
    let mut nes = power_on(options);
    let mut positions = Vec::new();
    let mut band = 0;
    let mut pieces_locked = 0u32;
    for (frame, &b) in game.input.iter().enumerate() {
        let was_active = nes.play_state() == PlayState::Active;
        nes.step(b);
        if was_active && nes.play_state() != PlayState::Active {
            pieces_locked += 1;
        }
        if band < BANDS.len()
            && pieces_locked > 0
            && nes.lines() >= BANDS[band]
            && between_pieces(&nes)
        {
            positions.push(Position {
                band: BANDS[band],
                seed,
                lines: nes.lines(),
                score: nes.uncapped_score(),
                input: encode(&game.input[..=frame]),
            });
            band += 1;
        }
    }
    positions
}

/// Makes positions: games `0..games` of the batch `seed` ([`game_seed`], the benchmark's
/// level-menu waits) with `player`, in parallel.
#[must_use]
pub fn make_positions(
    options: &BenchOptions,
    seed: u64,
    games: u64,
    player: &Player,
    made_by: String,
) -> PositionFile {
    use rayon::prelude::*;
    let positions: Vec<Vec<Position>> = (0..games)
        .into_par_iter()
        .map(|i| cut_positions(options, game_seed(seed, i), player))
        .collect();
    let mut positions: Vec<Position> = positions.into_iter().flatten().collect();
    positions.sort_by_key(|p| (p.band, p.seed));
    PositionFile::new(options, made_by, positions)
}

/// A position replayed: the engine and its frames so far, ready for [`continue_game`].
#[derive(Clone, Debug)]
pub struct Start {
    /// The position.
    pub position: Position,
    /// The engine there.
    pub nes: Nes,
    /// Its frames.
    pub input: Vec<Buttons>,
}

/// Replays positions once, so that every segment from them starts from a copy.
///
/// # Errors
/// When a position's input does not end between pieces.
pub fn replay_positions(
    file: &PositionFile,
    options: &BenchOptions,
) -> Result<Arc<Vec<Start>>, SegmentError> {
    let mut starts = Vec::with_capacity(file.positions.len());
    for p in &file.positions {
        let mut nes = power_on(options);
        let mut input = Vec::new();
        for &(b, n) in &p.input {
            for _ in 0..n {
                nes.step(Buttons::from_bits_retain(b));
                input.push(Buttons::from_bits_retain(b));
            }
        }
        if !between_pieces(&nes) || nes.lines() != p.lines || nes.uncapped_score() != p.score {
            return Err(SegmentError::NotBetweenPieces {
                seed: p.seed,
                band: p.band,
            });
        }
        starts.push(Start {
            position: p.clone(),
            nes,
            input,
        });
    }
    Ok(Arc::new(starts))
}

/// What a segment is worth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegmentScore {
    /// Points gained in the segment.
    pub points: u64,
    /// Lines cleared in it.
    pub lines: u32,
    /// Whether it ended with a top-out (or any end other than its line cap).
    pub topped_out: bool,
}

impl SegmentScore {
    /// The objective: points gained, less `loss_per_line` for each line to the game's line
    /// cap (else to the segment's end) that a top-out forfeits.
    #[must_use]
    pub fn value(
        &self,
        start: &Position,
        segment_lines: u32,
        line_cap: Option<u32>,
        loss_per_line: f64,
    ) -> f64 {
        let mut v = self.points as f64;
        if self.topped_out {
            let end = line_cap.unwrap_or(start.lines + segment_lines);
            let at = start.lines + self.lines;
            v -= loss_per_line * f64::from(end.saturating_sub(at));
        }
        v
    }
}

/// Where a segment's pieces come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SegmentPieces {
    /// The ROM's randomizer, as in the game: a player whose timing differs from another's
    /// meets other pieces.
    #[default]
    Rom,
    /// Dealt from a sequence of the position's own ([`PieceDealer`], seeded by the position),
    /// the same for every player: the pieces' luck falls out of a paired comparison. Not the
    /// ROM's game; whole games judge what it finds.
    Dealt,
}

impl SegmentPieces {
    /// Whether these are the ROM's pieces (the default, left out of checkpoints).
    #[must_use]
    pub fn is_rom(&self) -> bool {
        *self == SegmentPieces::Rom
    }
}

impl std::str::FromStr for SegmentPieces {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "rom" => Ok(SegmentPieces::Rom),
            "dealt" => Ok(SegmentPieces::Dealt),
            _ => Err(format!("unknown pieces {s:?}: rom or dealt")),
        }
    }
}

/// The seed of the pieces dealt from `position`: its game's seed and its lines, mixed.
fn dealt_seed(position: &Position) -> u64 {
    playfield_rng::SplitMix64::new(position.seed ^ (u64::from(position.lines) << 48)).next_u64()
}

/// Plays `segment_lines` lines (or to the game's own line cap) from `start` with `player`, the
/// pieces from `pieces`.
#[must_use]
pub fn play_segment(
    start: &Start,
    options: &BenchOptions,
    segment_lines: u32,
    player: &Player,
    pieces: SegmentPieces,
) -> SegmentScore {
    let mut cap = start.position.lines + segment_lines;
    if let Some(game_cap) = options.line_cap {
        cap = cap.min(game_cap);
    }
    let config = GameConfig {
        seed: start.position.seed,
        max_lines: Some(cap),
        ..options.game()
    };
    let (nes, input) = (start.nes.clone(), start.input.clone());
    let r = match pieces {
        SegmentPieces::Rom => continue_game(nes, input, &config, player, |_, _| Ok(())),
        SegmentPieces::Dealt => {
            let next = nes.next_piece().map_or(0, playfield_nes::Piece::index);
            let dealer = PieceDealer::new(dealt_seed(&start.position), next);
            continue_game_dealt(nes, input, &config, player, dealer, |_, _| Ok(()))
        }
    };
    SegmentScore {
        points: r.uncapped_score.saturating_sub(start.position.score),
        lines: r.lines.saturating_sub(start.position.lines),
        topped_out: r.end != GameEnd::LineCap,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nes::bench::Format;

    #[test]
    fn a_game_continued_from_a_saved_position_is_the_same_game() {
        let mut options = Format::BetaTetris.options();
        options.line_cap = Some(12);
        let player = Player::score(options.input_model().unwrap());
        let seed = game_seed(5, 0);
        let whole = play_game(
            &GameConfig {
                seed,
                ..options.game()
            },
            &player,
            |_, _| Ok(()),
        );
        // Bands 0 and 130 of a 12-line game: only the first is reached.
        let positions = cut_positions(&options, seed, &player);
        assert_eq!(positions.len(), 1);
        let file = PositionFile::new(&options, "test".into(), positions);
        let text = serde_json::to_string(&file).unwrap();
        let file = PositionFile::parse(&text, &options).unwrap();
        let starts = replay_positions(&file, &options).unwrap();
        let s = play_segment(&starts[0], &options, 100, &player, SegmentPieces::Rom);
        assert_eq!(s.points, whole.uncapped_score - starts[0].position.score);
        assert_eq!(starts[0].position.lines + s.lines, whole.lines);
        assert_eq!(s.topped_out, whole.end != GameEnd::LineCap);
        // The full movie is the position's input and the segment's.
        let r = continue_game(
            starts[0].nes.clone(),
            starts[0].input.clone(),
            &GameConfig {
                seed,
                ..options.game()
            },
            &player,
            |_, _| Ok(()),
        );
        assert_eq!(r.input, whole.input);
        // Other options are refused.
        let other = Format::Rom.options();
        assert!(PositionFile::parse(&text, &other).is_err());
        // So are a band that is none of the bands' first lines, an input too long to replay, a
        // key given twice, and a score the input does not reach.
        let mut bad = file.clone();
        bad.positions[0].band = 77;
        let e = PositionFile::parse(&serde_json::to_string(&bad).unwrap(), &options)
            .unwrap_err()
            .to_string();
        assert!(e.contains("band 77 is not one of"), "{e}");
        let mut bad = file.clone();
        bad.positions[0].input.push((0, u32::MAX));
        let e = PositionFile::parse(&serde_json::to_string(&bad).unwrap(), &options)
            .unwrap_err()
            .to_string();
        assert!(e.contains("runs past 1000000 frames"), "{e}");
        let twice = text.replacen("\"level\":", "\"level\":18,\"level\":", 1);
        let e = PositionFile::parse(&twice, &options)
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"level\" given twice"), "{e}");
        let mut bad = file.clone();
        bad.positions[0].score += 40;
        let e = replay_positions(&bad, &options).unwrap_err().to_string();
        assert!(e.contains("does not end in play between pieces"), "{e}");
    }

    /// The pieces spawned from `start` on (piece indexes), `lines` lines played by `player`
    /// with the pieces dealt.
    fn dealt_spawns(start: &Start, options: &BenchOptions, player: &Player) -> Vec<usize> {
        let config = GameConfig {
            seed: start.position.seed,
            max_lines: Some(start.position.lines + 20),
            ..options.game()
        };
        let next = start.nes.next_piece().unwrap().index();
        let dealer = PieceDealer::new(dealt_seed(&start.position), next);
        let mut spawns = Vec::new();
        let mut count = start.nes.raw().spawn_count;
        continue_game_dealt(
            start.nes.clone(),
            start.input.clone(),
            &config,
            player,
            dealer,
            |_, nes| {
                if nes.raw().spawn_count != count {
                    count = nes.raw().spawn_count;
                    spawns.push(nes.next_piece().unwrap().index());
                }
                Ok(())
            },
        );
        spawns
    }

    #[test]
    fn dealt_pieces_are_the_same_for_players_whose_timing_differs() {
        let mut options = Format::BetaTetris.options();
        options.line_cap = Some(40);
        let score = Player::score(options.input_model().unwrap());
        let birken = Player::birken(options.input_model().unwrap());
        let seed = game_seed(5, 1);
        let file = PositionFile::new(
            &options,
            "test".into(),
            cut_positions(&options, seed, &score),
        );
        let starts = replay_positions(&file, &options).unwrap();
        let a = dealt_spawns(&starts[0], &options, &score);
        let b = dealt_spawns(&starts[0], &options, &birken);
        // Each preview dealt is the dealer's sequence, whoever plays (the longer game's
        // sequence goes on where the shorter stops).
        let n = a.len().min(b.len());
        assert!(n > 30, "{} and {} pieces", a.len(), b.len());
        assert_eq!(a[..n], b[..n]);
        let mut dealer = PieceDealer::new(
            dealt_seed(&starts[0].position),
            starts[0].nes.next_piece().unwrap().index(),
        );
        let expected: Vec<usize> = (0..n).map(|_| dealer.deal()).collect();
        assert_eq!(a[..n], expected[..]);
        // The two players' frames differ, so on the ROM's randomizer their pieces would not.
        let rom = |player: &Player| {
            let r = continue_game(
                starts[0].nes.clone(),
                starts[0].input.clone(),
                &GameConfig {
                    seed,
                    max_lines: Some(starts[0].position.lines + 20),
                    ..options.game()
                },
                player,
                |_, _| Ok(()),
            );
            r.input
        };
        assert_ne!(rom(&score), rom(&birken));
        // Played with the pieces dealt, a segment still scores its own points.
        let s = play_segment(&starts[0], &options, 20, &score, SegmentPieces::Dealt);
        assert!(s.lines >= 20 || s.topped_out, "{s:?}");
        assert_eq!("dealt".parse::<SegmentPieces>(), Ok(SegmentPieces::Dealt));
        assert!("shuffled".parse::<SegmentPieces>().is_err());
    }

    #[test]
    fn the_dealer_deals_with_the_randomizers_transition_probabilities() {
        use crate::nes::field::transition_probability;
        let mut counts = [[0u32; 7]; 7];
        let mut dealer = PieceDealer::new(9, 0);
        let mut last = 0;
        for _ in 0..700_000 {
            let p = dealer.deal();
            counts[last][p] += 1;
            last = p;
        }
        for (from, row) in counts.iter().enumerate() {
            let total: u32 = row.iter().sum();
            for (to, &c) in row.iter().enumerate() {
                let share = f64::from(c) / f64::from(total);
                let p = transition_probability(from, to);
                assert!(
                    (share - p).abs() < 0.01,
                    "{from} -> {to}: {share} against {p}"
                );
            }
        }
    }
}
