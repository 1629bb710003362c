//! The score player's evaluator: stack for tetrises in a well on the right, keep the well and
//! the left wall reachable under the current gravity and input timeline, bring the stack down
//! before level 29's gravity puts the well out of reach, and cash lines in when the game's end
//! is near.
//!
//! What the strongest NES bots are known to value (docs/facts.md, last section): tetrises
//! over burns, holes as the worst fault, a flat surface, no covered well, heights that depend on
//! how far a piece can still travel. Danger here is measured, not guessed: a vertical I is tapped
//! from spawn toward the well as fast as the input timeline allows against the level's gravity
//! ([`super::reach`]); if it cannot get there, the well is lost.
//!
//! Weights are data ([`ScoreWeights`], JSON); `playfield nes tune` searches for others.

use std::path::Path;

use playfield_nes::rules;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::bands::Bands;
use super::field::{FULL_ROW, Field};
use super::input::InputModel;
use super::learned::{self, FEATURE_NAMES, LearnedValue};
use super::reach;
use super::search::Gravity;
use super::terms::Term;

/// The column the player keeps open for tetrises (the rightmost).
pub const WELL: usize = 9;

/// Orientation ids of the I piece (`iVert`, `iHoriz`).
const I_VERTICAL: u8 = 0x11;
const I_HORIZONTAL: u8 = 0x12;

/// The evaluator's weights. Each term is named for what it measures; positive weights reward,
/// negative ones penalise. Loaded from JSON with every term required and no unknown term.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreWeights {
    /// Per empty cell below a filled cell of its column, the well's aside; and per filled cell
    /// covering the well ([`well_cover`]), which takes a line to clear as a hole does.
    pub holes: f64,
    /// Per row that has a hole, and per filled cell covering the well.
    pub hole_rows: f64,
    /// Per row of height difference between neighbouring columns 1-9 (the well excluded).
    pub bumpiness: f64,
    /// Per squared height difference between neighbouring columns 1-9.
    pub bumpiness_squared: f64,
    /// Per cell of a well deeper than two rows outside the tetris well (it needs an I).
    pub deep_wells: f64,
    /// Per filled cell in the well column (not at double speed, where the player lines out and
    /// the other terms' columns 1-9 are all ten).
    pub well_cells: f64,
    /// Per row of mean height of columns 1-9.
    pub height: f64,
    /// Per squared row of height above the safe height, summed over columns 1-9.
    pub danger: f64,
    /// When at least four rows wait for an I in the well (not at double speed).
    pub tetris_ready: f64,
    /// When a vertical I tapped from spawn cannot reach the well column (not at double speed).
    pub well_unreachable: f64,
    /// When a vertical I tapped from spawn cannot reach the left wall.
    pub left_unreachable: f64,
    /// Per line cleared by a single, double or triple.
    pub burn: f64,
    /// Per tetris.
    pub tetris: f64,
    /// Per 1,000 points scored.
    pub points: f64,
    /// Column height (rows) from which `danger` counts at three or more frames per row
    /// (level 18 and below).
    pub safe_height_slow: f64,
    /// Column height from which `danger` counts at two frames per row (levels 19-28).
    pub safe_height: f64,
    /// Column height from which `danger` counts at level 29 and above.
    pub safe_height_fast: f64,
    /// Column height from which `danger` counts at double speed (the benchmark option).
    pub safe_height_double: f64,
    /// Factor on `burn` at double speed, where the well can rarely be served: lines are taken
    /// as they come.
    pub double_speed_burn_factor: f64,
    /// Factor on `burn` while the board has holes (digging them out needs burns).
    pub dig_burn_factor: f64,
    /// Lines before the line cap from which burns cost nothing (the game is ending).
    pub endgame_lines: f64,
    /// The cost of an I drought that ends the game: weighted by the chance that no I comes in
    /// the pieces the stack can still take (each piece fills four of the free cells of columns
    /// 1-9 below the reach ceiling less `drought_margin`), an I being one piece in seven. The
    /// reach ceiling is measured, not set: the highest even stack over which a vertical I
    /// tapped from spawn still gets into the well under the gravity ([`reach_ceiling`]). Not at
    /// double speed, where no well waits for an I.
    pub drought: f64,
    /// Rows below the reach ceiling at which the stack counts as full during a drought.
    pub drought_margin: f64,
    /// Lines before the gravity speeds up (level 19, 29, the double-speed level) from which the
    /// faster gravity's safe height applies: the stack comes down before the speed-up.
    pub transition_lines: f64,
    /// At double speed, per row by which a side column is lower than its neighbour (column 1
    /// than column 2, column 10 than column 9). A piece falls two rows a frame there and reaches
    /// the side columns only low down: a one-wide gap at column 1 takes a vertical piece five
    /// taps away, which the fall rarely allows, while a three-wide piece fills a flat side with
    /// four, and a row with an unfillable side column is never cleared.
    pub double_speed_edge_gaps: f64,
    /// Lines before level 29's gravity (one row a frame, from levels 19-28's two) from which
    /// every board of a decision is judged under it: its safe height, its reach ceiling for the
    /// drought, the well's and the left wall's reach ([`ScoreWeights::judging_gravity`]). A
    /// stack that levels 19-28 can still serve (a vertical I gets into the well over 15 rows)
    /// is lost at level 29 (12 rows), so the stack comes down before, at the price of some
    /// burns. 0: never.
    pub cash_in_lines: f64,
    /// Per row waiting for an I below a covered well whose covering row also has a hole (not
    /// at double speed). Such a cover is not cleared by filling its row from above: its hole
    /// must be dug out first, and until then the rows below cannot take a tetris, while the
    /// cover alone ([`ScoreWeights::holes`]) costs one hole.
    pub locked_well: f64,
    /// The I-drought risk on the decision's board (the `drought` term's chance that no I comes
    /// in the pieces the stack can still take, [`ScoreWeights::drought_risk`]) from which the
    /// decision lines out: no well kept, burns free, all ten columns judged alike, as at double
    /// speed ([`Context::line_out`]). A stack ready for a tetris cannot wait out a long
    /// drought: it covers the well piece by piece with holes in its rows. Lining out burns the
    /// ready rows down while they are still clean. 0: never.
    pub line_out_risk: f64,
    /// Per unit of the surface table's value of columns 1-9 ([`super::surface`]: the expected
    /// discounted count of pieces the surface takes without a hole). At 0 the table is not
    /// computed and decisions are as without the term; a file without it reads as 0.
    #[serde(default)]
    pub surface: f64,
    /// At double speed, the height (rows, the highest of columns 1-9) up to which the player
    /// keeps the tetris well instead of lining out: a vertical I still reaches the well over a
    /// low stack (six rows at 30 Hz), and a tetris there is worth thirty singles per line. Above
    /// it the decision lines out as at 0, where it always does; a file without it reads as 0.
    #[serde(default)]
    pub double_speed_well: f64,
    /// Terms replaced from a level on or at double speed ([`super::bands`]); a file without
    /// them plays by the terms above at every level.
    #[serde(default, skip_serializing_if = "Bands::is_empty")]
    pub bands: Bands,
    /// A board value learned from the game ([`super::learned`]): where it applies, a placement
    /// is rated by its clear's points plus this value of the board it leaves, the terms above
    /// being one of its features; a file without it plays by the terms alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<LearnedValue>,
}

impl ScoreWeights {
    /// The shipped weights, `crates/ai/weights/score.json` (its README says what each term
    /// measures and how the file was made).
    #[must_use]
    pub fn shipped() -> ScoreWeights {
        serde_json::from_str(include_str!("../../weights/score.json"))
            .expect("the shipped weights parse (tested)")
    }

    /// Reads weights from a JSON file.
    ///
    /// # Errors
    /// When the file cannot be read, is not JSON, or misses or adds a term.
    pub fn load(path: &Path) -> Result<ScoreWeights, WeightsError> {
        let text = std::fs::read_to_string(path).map_err(|error| WeightsError::Read {
            path: path.display().to_string(),
            error,
        })?;
        Self::parse(&text).map_err(|e| match e {
            WeightsError::Parse { message, .. } => WeightsError::Parse {
                path: path.display().to_string(),
                message,
            },
            WeightsError::BadTerm { term, message, .. } => WeightsError::BadTerm {
                path: path.display().to_string(),
                term,
                message,
            },
            other => other,
        })
    }

    /// Parses weights from JSON text.
    ///
    /// # Errors
    /// When the text is not a JSON object with exactly the terms, each a finite number, and
    /// optionally bands ([`super::bands`]) of known terms.
    pub fn parse(text: &str) -> Result<ScoreWeights, WeightsError> {
        let parse_error = |e: serde_json::Error| WeightsError::Parse {
            path: "<text>".to_owned(),
            message: e.to_string(),
        };
        crate::json::check_unique_keys(text).map_err(parse_error)?;
        let mut value: serde_json::Value = serde_json::from_str(text).map_err(parse_error)?;
        // How a tuned file was made (`playfield nes tune` writes it beside the terms).
        if let Some(map) = value.as_object_mut() {
            map.remove(HOW_MADE);
        }
        let w: ScoreWeights = serde_json::from_value(value).map_err(parse_error)?;
        for (term, value) in w.terms() {
            if let Some(message) = term_problem(term, value) {
                return Err(WeightsError::BadTerm {
                    path: "<text>".to_owned(),
                    term,
                    message,
                });
            }
        }
        Ok(w)
    }

    /// The terms as (name, value), in declaration order (for tuning and reports).
    #[must_use]
    pub fn terms(&self) -> Vec<(&'static str, f64)> {
        let v = serde_json::to_value(self).expect("weights serialise");
        let map = v.as_object().expect("an object");
        TERM_NAMES
            .iter()
            .map(|&n| (n, map[n].as_f64().expect("a number")))
            .collect()
    }

    /// Weights from terms in [`TERM_NAMES`] order, without bands.
    #[must_use]
    pub fn from_terms(values: &[f64]) -> ScoreWeights {
        let map: serde_json::Map<String, serde_json::Value> = TERM_NAMES
            .iter()
            .zip(values)
            .map(|(&n, &v)| (n.to_owned(), serde_json::json!(v)))
            .collect();
        serde_json::from_value(serde_json::Value::Object(map)).expect("every term given")
    }
}

/// The key of a weights file's record of how it was made, which is not a term.
pub const HOW_MADE: &str = "how_made";

/// The names of [`ScoreWeights`]' terms, in order.
pub const TERM_NAMES: [&str; 30] = [
    "holes",
    "hole_rows",
    "bumpiness",
    "bumpiness_squared",
    "deep_wells",
    "well_cells",
    "height",
    "danger",
    "tetris_ready",
    "well_unreachable",
    "left_unreachable",
    "burn",
    "tetris",
    "points",
    "safe_height_slow",
    "safe_height",
    "safe_height_fast",
    "safe_height_double",
    "double_speed_burn_factor",
    "dig_burn_factor",
    "endgame_lines",
    "drought",
    "drought_margin",
    "transition_lines",
    "double_speed_edge_gaps",
    "cash_in_lines",
    "locked_well",
    "line_out_risk",
    "surface",
    "double_speed_well",
];

/// The largest price (in either direction) a term may set: far beyond any tuned or hand-set
/// weight, and small enough that a board's sum of terms stays finite.
pub const MOST_PRICE: f64 = 1e6;

/// The values term `name` may take, with what it counts: heights are rows of the 20-row
/// playfield, line counts lines, the line-out risk a chance; every other term is a price.
#[must_use]
pub fn term_range(name: &str) -> (f64, f64, &'static str) {
    match name {
        "safe_height_slow" | "safe_height" | "safe_height_fast" | "safe_height_double"
        | "double_speed_well" => (0.0, 20.0, "rows"),
        "drought_margin" => (-20.0, 20.0, "rows"),
        "endgame_lines" | "transition_lines" | "cash_in_lines" => (0.0, 10_000.0, "lines"),
        "line_out_risk" => (0.0, 1.0, "a chance"),
        _ => (-MOST_PRICE, MOST_PRICE, "a price"),
    }
}

/// Why term `name` cannot be `value`, if it cannot: not finite, or outside [`term_range`].
#[must_use]
pub fn term_problem(name: &str, value: f64) -> Option<String> {
    let (low, high, unit) = term_range(name);
    if !value.is_finite() {
        Some(format!("term {name} is {value}, expected a finite number"))
    } else if !(low..=high).contains(&value) {
        Some(format!(
            "term {name} is {value}, expected {low} to {high} ({unit})"
        ))
    } else {
        None
    }
}

/// `value` brought into term `name`'s [`term_range`] (a tuning's sample may step outside it).
#[must_use]
pub fn clamp_term(name: &str, value: f64) -> f64 {
    let (low, high, _) = term_range(name);
    value.clamp(low, high)
}

/// A weights file that cannot be used.
#[derive(Debug, Error)]
pub enum WeightsError {
    /// The file cannot be read.
    #[error("cannot read weights file {path}: {error}")]
    Read {
        /// The file.
        path: String,
        /// The OS error (in the message, not a source: the message says it once).
        error: std::io::Error,
    },
    /// Not JSON, a term missing, an unknown term, or a value that is not a number.
    #[error("bad weights in {path}: {message} (expected a JSON object with exactly the terms {terms}, and optionally `bands` and a learned `value`)", terms = TERM_NAMES.join(", "))]
    Parse {
        /// The file.
        path: String,
        /// What the parser said, with line and column.
        message: String,
    },
    /// A term is infinite, not a number, or outside its range ([`term_range`]).
    #[error("bad weights in {path}: {message}")]
    BadTerm {
        /// The file.
        path: String,
        /// The term.
        term: &'static str,
        /// What is wrong with its value.
        message: String,
    },
}

/// What the evaluator needs to know about the game at a board: gravity, and where the game
/// stands (level for points, lines for the level-ups and the line cap). The input model's press
/// frames come beside it (`presses`). `Copy`: every drop of the look-ahead makes one.
#[derive(Clone, Copy, Debug)]
pub struct Context {
    /// `levelNumber`.
    pub level: u8,
    /// `lines`, BCD, low byte first.
    pub lines: [u8; 2],
    /// The line cap of the benchmark format, if any (the game ends there).
    pub line_cap: Option<u32>,
    /// The double-speed option's level, if on.
    pub double_speed_level: Option<u8>,
    /// When the gravity next speeds up: the line count at which it does, and the gravity then
    /// ([`Context::next_speed_up`]); `None` when it never does.
    pub speed_up: Option<(u32, Gravity)>,
    /// [`reach_ceiling`] for the input model at the four gravities the evaluator tells apart
    /// ([`gravity_class`]); [`Context::ceilings_for`] computes them.
    pub ceilings: [u8; 4],
    /// The gravity every board of one decision is judged under, set once at the decision's
    /// root ([`Context::judged_gravity`]). Judged each under its own gravity, a candidate that
    /// clears the lines to the next speed-up looks worse than one that stops short of it (the
    /// faster gravity's safe height and reach ceiling are lower), so the player would put the
    /// speed-up off while its stack grew. `None`: each board under its own gravity.
    pub judged: Option<Gravity>,
    /// Whether every board of the decision is judged lining out, as at double speed: no well
    /// kept, burns free ([`ScoreWeights::double_speed_burn_factor`]), all ten columns alike. Set
    /// once at the decision's root ([`ScoreWeights::lines_out`]).
    pub line_out: bool,
    /// Clears that freeze or crash the game at this level (bit `n` for `n` rows), as the
    /// engine finds them ([`Situation::unsafe_clears`](super::Situation::unsafe_clears)).
    pub unsafe_clears: u8,
    /// The points count no more (the ROM's score is maxed and is what the game is scored by,
    /// [`Situation::score_maxed`](super::Situation::score_maxed)): a clear is worth only the
    /// board it leaves, and the decision lines out, so the player plays to survive.
    pub survival: bool,
}

/// The evaluator's four gravities: three or more frames per row (level 18 and below), two
/// (19-28), one (29 and above), and double speed.
#[must_use]
pub fn gravity_class(gravity: Gravity) -> usize {
    if gravity.double {
        3
    } else {
        match gravity.drop_speed {
            0..=1 => 2,
            2 => 1,
            _ => 0,
        }
    }
}

impl Context {
    /// [`reach_ceiling`] at each of the [`gravity_class`]es, for the input model's press frames.
    #[must_use]
    pub fn ceilings_for(presses: &[u32]) -> [u8; 4] {
        [(3, false), (2, false), (1, false), (1, true)]
            .map(|(drop_speed, double)| reach_ceiling(Gravity { drop_speed, double }, presses))
    }

    /// The gravity this context's boards are judged under: the decision's, or else its own.
    #[must_use]
    pub fn judged_gravity(&self) -> Gravity {
        self.judged.unwrap_or_else(|| self.gravity())
    }

    /// Gravity at this context's level.
    #[must_use]
    pub fn gravity(&self) -> Gravity {
        Gravity::with_double_speed(self.level, self.double_speed_level)
    }

    /// When the gravity next speeds up from this context, clearing lines one at a time as
    /// `incrementLines` counts them: (lines then, gravity then). Looks at most 300 lines ahead.
    #[must_use]
    pub fn next_speed_up(&self) -> Option<(u32, Gravity)> {
        let now = self.gravity();
        let mut c = *self;
        for _ in 0..300 {
            rules::increment_lines(&mut c.lines, &mut c.level);
            let g = c.gravity();
            if g.drop_speed < now.drop_speed || (g.double && !now.double) {
                return Some((c.lines_decimal(), g));
            }
        }
        None
    }

    /// Lines as a number.
    #[must_use]
    pub fn lines_decimal(&self) -> u32 {
        playfield_nes::raw::bcd(self.lines[1]) * 100 + playfield_nes::raw::bcd(self.lines[0])
    }

    /// The context after `cleared` lines (`incrementLines`, level-ups included).
    #[must_use]
    pub fn after(&self, cleared: u8) -> Context {
        let mut c = *self;
        for _ in 0..cleared {
            rules::increment_lines(&mut c.lines, &mut c.level);
        }
        c
    }
}

/// What a clear that freezes or crashes the game costs the score player: more than any board
/// it could keep instead.
const UNSAFE_CLEAR_COST: f64 = 1.0e6;

impl ScoreWeights {
    /// The reward for clearing `cleared` rows in `ctx` (before the clear): points, the tetris
    /// bonus, the burn cost (less while digging, none at the end of a capped game).
    #[must_use]
    pub fn clear_reward(&self, cleared: u8, ctx: &Context, holes_before: bool) -> f64 {
        if cleared == 0 {
            return 0.0;
        }
        // A clear that freezes or crashes the game ends it: worse than any board.
        if ctx.unsafe_clears & (1 << cleared) != 0 {
            return -UNSAFE_CLEAR_COST;
        }
        if ctx.survival {
            return 0.0;
        }
        let after = ctx.after(cleared);
        if self.value.as_ref().is_some_and(|v| v.rates(ctx)) {
            // The learned value is in points: a clear is worth exactly what it scores.
            return f64::from(rules::line_clear_points(cleared, after.level)) / 1000.0;
        }
        // The points use the level after the lines are counted, as `addLineClearPoints` does.
        let points = f64::from(rules::line_clear_points(cleared, after.level)) / 1000.0;
        let mut reward = self.points * points;
        if cleared == 4 {
            reward += self.tetris;
        } else {
            let endgame = ctx.line_cap.is_some_and(|cap| {
                f64::from(cap.saturating_sub(ctx.lines_decimal())) <= self.endgame_lines
            });
            if !endgame {
                let mut factor = if holes_before {
                    self.dig_burn_factor
                } else {
                    1.0
                };
                if self.lines_out_at_double_speed(ctx) || ctx.line_out {
                    factor *= self.double_speed_burn_factor;
                }
                reward += self.burn * factor * f64::from(cleared);
            }
        }
        reward
    }

    /// The gravity every board of a decision in `ctx` is judged under: the piece's own, or
    /// level 29's from [`ScoreWeights::cash_in_lines`] lines before it (`ctx.speed_up` tells
    /// when the gravity speeds up next).
    #[must_use]
    pub fn judging_gravity(&self, ctx: &Context) -> Gravity {
        let now = ctx.gravity();
        match ctx.speed_up {
            // From levels 19-28's class to level 29's.
            Some((at, faster))
                if gravity_class(now) == 1
                    && gravity_class(faster) == 2
                    && f64::from(at.saturating_sub(ctx.lines_decimal())) <= self.cash_in_lines =>
            {
                faster
            }
            _ => now,
        }
    }

    /// Whether every board in `ctx` lines out for its double speed alone: at double speed,
    /// unless the player keeps a well there ([`ScoreWeights::double_speed_well`]; then the
    /// decision says, [`ScoreWeights::lines_out`]).
    #[must_use]
    pub fn lines_out_at_double_speed(&self, ctx: &Context) -> bool {
        ctx.judged_gravity().double && self.double_speed_well <= 0.0
    }

    /// Whether a decision on `field` in `ctx` lines out: at double speed when the player keeps
    /// a well there and the stack of columns 1-9 is higher than `double_speed_well` (at 0 the
    /// boards line out anyway, [`ScoreWeights::lines_out_at_double_speed`]); before it, when
    /// [`ScoreWeights::drought_risk`] reaches `line_out_risk`.
    #[must_use]
    pub fn lines_out(&self, field: &Field, ctx: &Context) -> bool {
        if ctx.judged_gravity().double {
            let heights = field.heights();
            let highest = heights[..WELL].iter().copied().max().unwrap_or(0);
            return self.double_speed_well > 0.0 && f64::from(highest) > self.double_speed_well;
        }
        self.line_out_risk > 0.0
            && !ctx.judged_gravity().double
            && self.drought_risk(&field.heights(), ctx) >= self.line_out_risk
    }

    /// The chance that no I comes in the pieces the stack can still take: each piece fills four
    /// of the free cells of columns 1-9 below the reach ceiling (less `drought_margin`), an I
    /// being one piece in seven. The cells of a narrow well below a J's or an L's reach are no
    /// room: they take an I, which a drought lacks.
    #[must_use]
    pub fn drought_risk(&self, heights: &[u8; 10], ctx: &Context) -> f64 {
        let gravity = ctx.judged_gravity();
        let ceiling = f64::from(ctx.ceilings[gravity_class(gravity)]) - self.drought_margin;
        let mut free_cells = 0.0;
        for x in 0..WELL {
            let h = f64::from(heights[x]);
            let left = if x == 0 { 20 } else { heights[x - 1] };
            let right = if x + 1 == WELL { 20 } else { heights[x + 1] };
            let depth = i32::from(left.min(right)) - i32::from(heights[x]);
            let floor = h.max(f64::from(depth.max(2) - 2) + h);
            free_cells += (ceiling - floor).max(0.0);
        }
        drought_chance(free_cells)
    }

    /// The column height from which `danger` counts under `gravity`.
    #[must_use]
    pub fn safe_height_at(&self, gravity: Gravity) -> f64 {
        [
            self.safe_height_slow,
            self.safe_height,
            self.safe_height_fast,
            self.safe_height_double,
        ][gravity_class(gravity)]
    }

    /// The first stage of [`ScoreWeights::board_value`] and an upper bound of the whole, at
    /// about half its cost; `None` where the weights give no bound, or a learned value applies.
    /// The first stage adds the terms that need only the rows and the column heights, in the
    /// value's order; the bound then adds the most the others can: each measures something never
    /// negative, so `drought` and the reach terms add at most 0 when their weights are not
    /// positive, and `tetris_ready` (a fixed bonus) at most its weight. Rounded addition is
    /// monotone, so the bound holds to the bit: the look-ahead finishes only the boards that can
    /// be the best ([`ScoreWeights::finish_board_value`]) without changing a decision.
    #[inline]
    #[must_use]
    pub fn board_value_bound(&self, field: &Field, ctx: &Context) -> Option<(f64, FirstStage)> {
        if !self.bounded(ctx) {
            return None;
        }
        self.board_value_bound_with(field, ctx, self.board_holes(field, ctx))
    }

    /// [`ScoreWeights::board_value_bound`] of a board whose holes are `holes` (counted from
    /// another board's with [`Holes::after_drop`]).
    #[inline]
    #[must_use]
    pub fn board_value_bound_with(
        &self,
        field: &Field,
        ctx: &Context,
        holes: Holes,
    ) -> Option<(f64, FirstStage)> {
        if !self.bounded(ctx) {
            return None;
        }
        let mut sum = -0.0;
        let first = self.first_terms(field, ctx, holes, |_, value| sum += value);
        let bound = sum + self.tetris_ready.max(0.0);
        Some((bound, FirstStage { sum, ..first }))
    }

    /// Whether [`ScoreWeights::board_value_bound`] has a bound in `ctx`.
    fn bounded(&self, ctx: &Context) -> bool {
        self.drought <= 0.0
            && self.well_unreachable <= 0.0
            && self.left_unreachable <= 0.0
            && self.surface == 0.0
            && !self.value.as_ref().is_some_and(|v| v.rates(ctx))
    }

    /// The holes of a board in `ctx`, as its value counts them.
    #[inline]
    #[must_use]
    pub fn board_holes(&self, field: &Field, ctx: &Context) -> Holes {
        Holes::of(field, self.line_out(ctx))
    }

    /// Whether the boards of `ctx` line out (at double speed an I can rarely be brought to the
    /// well in time: the player lines out, all ten columns alike, with no well to keep and no
    /// drought to fear, unless it keeps a well over a low stack, `double_speed_well`).
    fn line_out(&self, ctx: &Context) -> bool {
        self.lines_out_at_double_speed(ctx) || ctx.line_out
    }

    /// The value of a board whose first stage is `first` ([`ScoreWeights::board_value_bound`]):
    /// [`ScoreWeights::board_value`] to the bit.
    #[inline]
    #[must_use]
    pub fn finish_board_value(
        &self,
        field: &Field,
        ctx: &Context,
        presses: &[u32],
        first: &FirstStage,
    ) -> f64 {
        let mut sum = first.sum;
        self.last_terms(field, ctx, presses, first, |_, value| sum += value);
        sum
    }

    /// The value of a board (higher is better) in `ctx`, with `presses` the input model's press
    /// frames ([`press_frames`]): the learned value where there is one and it applies
    /// ([`super::learned`]), else the terms' ([`ScoreWeights::terms_board_value`]); the sum of
    /// [`ScoreWeights::board_terms`] either way.
    #[inline]
    #[must_use]
    pub fn board_value(&self, field: &Field, ctx: &Context, presses: &[u32]) -> f64 {
        if let Some(value) = &self.value
            && value.rates(ctx)
        {
            let features = learned::features(self, field, ctx, presses);
            return value.value(gravity_class(ctx.judged_gravity()), &features);
        }
        self.terms_board_value(field, ctx, presses)
    }

    /// The terms' value of a board (higher is better), without a learned value: the sum of
    /// the terms of [`ScoreWeights::board_terms`].
    #[inline]
    #[must_use]
    pub fn terms_board_value(&self, field: &Field, ctx: &Context, presses: &[u32]) -> f64 {
        // -0.0 is the sum's exact identity: the value is the terms added in order, to the bit.
        let mut sum = -0.0;
        self.each_board_term(field, ctx, presses, |_, value| sum += value);
        sum
    }

    /// Each term's contribution to the value of a board in `ctx` (weight times what the term
    /// measures, 0 where the term does not apply), in a fixed order.
    #[must_use]
    pub fn board_terms(&self, field: &Field, ctx: &Context, presses: &[u32]) -> Vec<Term> {
        if let Some(value) = &self.value
            && value.rates(ctx)
        {
            let features = learned::features(self, field, ctx, presses);
            let class = gravity_class(ctx.judged_gravity());
            return FEATURE_NAMES
                .iter()
                .zip(features)
                .zip(value.coefficients[class])
                .map(|((&name, f), c)| Term { name, value: c * f })
                .collect();
        }
        let mut terms = Vec::with_capacity(14);
        self.each_board_term(field, ctx, presses, |name, value| {
            terms.push(Term { name, value });
        });
        terms
    }

    /// Calls `term` with each term's name and contribution, in a fixed order: the one home of
    /// the board's value, for [`ScoreWeights::board_value`] (the search's hot path, where the
    /// names cost nothing) and [`ScoreWeights::board_terms`].
    #[inline(always)]
    fn each_board_term(
        &self,
        field: &Field,
        ctx: &Context,
        presses: &[u32],
        mut term: impl FnMut(&'static str, f64),
    ) {
        let holes = self.board_holes(field, ctx);
        let first = self.first_terms(field, ctx, holes, &mut term);
        self.last_terms(field, ctx, presses, &first, term);
    }

    /// The terms that need only the rows and the column heights (the value's first ten, in
    /// order), from the board's `holes`; with the heights and whether the board lines out.
    #[inline(always)]
    fn first_terms(
        &self,
        field: &Field,
        ctx: &Context,
        holes: Holes,
        mut term: impl FnMut(&'static str, f64),
    ) -> FirstStage {
        let gravity = ctx.judged_gravity();
        let line_out = self.line_out(ctx);
        // Holes counted under another lining out would not be this board's.
        let holes = if holes.line_out == line_out {
            holes
        } else {
            Holes::of(field, line_out)
        };
        let heights = holes.heights;
        let mut bumpiness = 0.0;
        let mut bumpiness_squared = 0.0;
        let mut deep_wells = 0.0;
        let mut height_sum = 0.0;
        let mut danger = 0.0;
        let mut safe = self.safe_height_at(gravity);
        if let Some((at, faster)) = ctx.speed_up
            && ctx.lines_decimal() < at
            && f64::from(at - ctx.lines_decimal()) <= self.transition_lines
        {
            safe = safe.min(self.safe_height_at(faster));
        }
        let columns = if line_out { 10 } else { WELL };
        for x in 0..columns {
            let h = f64::from(heights[x]);
            height_sum += h;
            if h > safe {
                danger += (h - safe) * (h - safe);
            }
            if x + 1 < columns {
                let d = f64::from(heights[x + 1]) - h;
                bumpiness += d.abs();
                bumpiness_squared += d * d;
            }
            let left = if x == 0 { 20 } else { heights[x - 1] };
            let right = if x + 1 == columns { 20 } else { heights[x + 1] };
            let depth = i32::from(left.min(right)) - i32::from(heights[x]);
            if depth > 2 {
                deep_wells += f64::from(depth - 2);
            }
        }
        let (well_cells, edge_gaps) = if line_out {
            let gap =
                |side: usize, next: usize| f64::from(heights[next].saturating_sub(heights[side]));
            (0.0, gap(0, 1) + gap(9, 8))
        } else {
            (f64::from(holes.well_filled), 0.0)
        };
        term(
            "holes",
            self.holes * f64::from(holes.holes + holes.well_cover),
        );
        term(
            "hole_rows",
            self.hole_rows * f64::from(holes.hole_rows.count_ones() + holes.well_cover),
        );
        term("bumpiness", self.bumpiness * bumpiness);
        term(
            "bumpiness_squared",
            self.bumpiness_squared * bumpiness_squared,
        );
        term("deep_wells", self.deep_wells * deep_wells);
        term("well_cells", self.well_cells * well_cells);
        term(
            "locked_well",
            self.locked_well * f64::from(holes.locked_rows),
        );
        term("height", self.height * height_sum / columns as f64);
        term("danger", self.danger * danger);
        term(
            "double_speed_edge_gaps",
            self.double_speed_edge_gaps * edge_gaps,
        );
        FirstStage {
            sum: 0.0,
            heights,
            line_out,
        }
    }

    /// The terms after [`ScoreWeights::first_terms`]: the drought, the tetris-ready bonus, the
    /// reach of the well and of the left wall, the surface table.
    #[inline(always)]
    fn last_terms(
        &self,
        field: &Field,
        ctx: &Context,
        presses: &[u32],
        first: &FirstStage,
        mut term: impl FnMut(&'static str, f64),
    ) {
        let gravity = ctx.judged_gravity();
        let FirstStage {
            heights, line_out, ..
        } = *first;
        term(
            "drought",
            if line_out {
                0.0
            } else {
                self.drought * self.drought_risk(&heights, ctx)
            },
        );
        // Rows waiting for an I: full but for the well, from the bottom up, well open above.
        let mut ready = 0;
        for row in field.rows.iter().rev() {
            if *row == FULL_ROW & !(1 << WELL) {
                ready += 1;
            } else {
                break;
            }
        }
        term(
            "tetris_ready",
            if !line_out && ready >= 4 && heights[WELL] == 0 {
                self.tetris_ready
            } else {
                0.0
            },
        );
        let well_reachable = reach::reaches(
            field,
            I_HORIZONTAL,
            I_VERTICAL,
            WELL as i8,
            gravity,
            presses,
        );
        term(
            "well_unreachable",
            if well_reachable || line_out {
                0.0
            } else {
                self.well_unreachable
            },
        );
        let left_reachable = reach::reaches(field, I_HORIZONTAL, I_VERTICAL, 0, gravity, presses);
        term(
            "left_unreachable",
            if left_reachable {
                0.0
            } else {
                self.left_unreachable
            },
        );
        // Not even looked up at 0: the table costs seconds to compute at its first use.
        if self.surface != 0.0 {
            term(
                "surface",
                self.surface * super::surface::SurfaceTable::shared().value(&heights),
            );
        }
    }
}

/// The highest even stack (columns 1-9 filled to that many rows, the well empty) over which a
/// vertical I tapped from spawn as fast as the timeline allows still gets into the well under
/// `gravity`: above it a tetris can no longer be taken, whatever comes.
#[must_use]
pub fn reach_ceiling(gravity: Gravity, presses: &[u32]) -> u8 {
    (0..=20u8)
        .rev()
        .find(|&h| {
            let mut f = Field::default();
            for row in &mut f.rows[usize::from(20 - h)..] {
                *row = FULL_ROW & !(1 << WELL);
            }
            reach::reaches(&f, I_HORIZONTAL, I_VERTICAL, WELL as i8, gravity, presses)
        })
        .unwrap_or(0)
}

/// The chance that no I comes in the pieces it takes to fill `free_cells` cells (four a piece),
/// one piece in seven being an I. The cells are whole where the margin is (every shipped
/// weight's is): those are looked up, the same powers computed once.
fn drought_chance(free_cells: f64) -> f64 {
    fn chance(cells: f64) -> f64 {
        (6.0f64 / 7.0).powf(cells / 4.0)
    }
    static WHOLE: std::sync::LazyLock<[f64; 256]> =
        std::sync::LazyLock::new(|| std::array::from_fn(|cells| chance(cells as f64)));
    if free_cells.fract() == 0.0 && (0.0..256.0).contains(&free_cells) {
        WHOLE[free_cells as usize]
    } else {
        chance(free_cells)
    }
}

/// The holes of a board as the value counts them ([`ScoreWeights::board_holes`]), and its
/// column heights: kept for a board so that those of the boards one drop away can be counted
/// from them ([`Holes::after_drop`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holes {
    /// Empty cells below a filled cell of their column, the well's aside (all ten columns'
    /// when lining out).
    holes: u32,
    /// The rows that have such a hole, one bit each.
    hole_rows: u32,
    /// Rows below a well cover whose own row has a hole, the well empty in them.
    locked_rows: u32,
    /// [`well_cover`] (0, 0 when lining out: no well is kept).
    well_cover: u32,
    well_filled: u32,
    /// [`Field::heights`], found on the way.
    heights: [u8; 10],
    /// Whether the board lines out (the well's cells count as any other's).
    line_out: bool,
    /// The rows whose well cell is filled, one bit each (none counted when lining out).
    well_rows: u32,
}

/// The first stage of a board's value ([`ScoreWeights::board_value_bound`]).
#[derive(Clone, Copy, Debug)]
pub struct FirstStage {
    /// The first terms' sum.
    sum: f64,
    heights: [u8; 10],
    line_out: bool,
}

impl Holes {
    #[inline]
    fn of(field: &Field, line_out: bool) -> Holes {
        // The well's own empty cells are not holes: a covered well costs what uncovering it
        // does ([`well_cover`]).
        let well_mask = if line_out { 0 } else { 1u16 << WELL };
        let (mut holes, mut hole_rows) = (0u32, 0u32);
        let mut covered = 0u16;
        let (mut locked, mut locked_rows) = (false, 0u32);
        let mut well_rows = 0u32;
        // The empty rows above the stack count nothing.
        let top = field.rows.iter().position(|&row| row != 0).unwrap_or(20);
        let mut heights = [0u8; 10];
        for (y, &row) in field.rows.iter().enumerate().skip(top) {
            let mut new = row & !covered;
            while new != 0 {
                heights[new.trailing_zeros() as usize] = (20 - y) as u8;
                new &= new - 1;
            }
            let empty_below = covered & !row & !well_mask;
            if empty_below != 0 {
                holes += empty_below.count_ones();
                hole_rows |= 1 << y;
            }
            if !line_out {
                let fills_well = row & (1 << WELL) != 0;
                well_rows |= u32::from(fills_well) << y;
                locked |= fills_well && empty_below != 0;
                locked_rows += u32::from(locked && !fills_well);
            }
            covered |= row;
        }
        let (well_cover, well_filled) = if line_out { (0, 0) } else { well_cover(field) };
        Holes {
            holes,
            hole_rows,
            locked_rows,
            well_cover,
            well_filled,
            heights,
            line_out,
            well_rows,
        }
    }

    /// The holes after a piece in `orientation` dropped straight to (`x`, `y`) on this board
    /// locks and clears no row: the cells between the lowest mino of each of its columns and
    /// that column's top become holes, and the column's top is its highest mino. The well's
    /// cover and fill stay, and so do its locked rows while no new hole is in a row whose well
    /// cell is filled. `None` where the well is concerned (a board lining out, the piece in the
    /// well column, a new hole beside a filled well cell) or the piece is not above each
    /// column's top: the board is then counted whole ([`Holes::of`]).
    #[inline]
    #[must_use]
    pub fn after_drop(&self, orientation: u8, x: i8, y: i8) -> Option<Holes> {
        if self.line_out {
            return None;
        }
        let mut after = *self;
        for &(dx, low, high) in column_spans(orientation) {
            let c = x + dx;
            let (lowest, highest) = (y + low, y + high);
            if !(0..WELL as i8).contains(&c) || highest < 0 || lowest >= 20 {
                return None;
            }
            let c = c as usize;
            let top = 20 - self.heights[c] as i8;
            if lowest >= top {
                return None;
            }
            // Rows lowest + 1 to top − 1 of the column are covered now.
            let rows = ((1u32 << top) - 1) & !((1u32 << (lowest + 1)) - 1);
            if rows & self.well_rows != 0 {
                return None;
            }
            after.holes += (top - lowest - 1) as u32;
            after.hole_rows |= rows;
            after.heights[c] = (20 - highest) as u8;
        }
        Some(after)
    }
}

/// The columns of an orientation's minos: (column offset, lowest and highest row offset) of
/// each, its minos being contiguous within a column.
fn column_spans(orientation: u8) -> &'static [(i8, i8, i8)] {
    static SPANS: std::sync::LazyLock<Vec<Vec<(i8, i8, i8)>>> = std::sync::LazyLock::new(|| {
        playfield_nes::tables::ORIENTATIONS
            .iter()
            .map(|minos| {
                let mut spans: Vec<(i8, i8, i8)> = Vec::new();
                for m in minos {
                    match spans.iter_mut().find(|s| s.0 == m.dx) {
                        Some(s) => *s = (m.dx, s.1.max(m.dy), s.2.min(m.dy)),
                        None => spans.push((m.dx, m.dy, m.dy)),
                    }
                }
                spans
            })
            .collect()
    });
    &SPANS[usize::from(orientation)]
}

/// The well column's cover and fill: (filled cells above an empty cell of it, filled cells).
///
/// A covered well is opened again by clearing the rows of its cover, one line each, while the
/// rows waiting below it stay ready: what it costs grows with the cover, not with the depth
/// below. Counted by that depth (each empty well cell a hole), a well covered over 12 ready rows
/// cost about 456, sixteen holes with their rows, so in an I drought the player hardly burned
/// into the well and built on to the top.
#[must_use]
pub fn well_cover(field: &Field) -> (u32, u32) {
    let (mut cover, mut filled, mut run) = (0, 0, 0);
    for &row in &field.rows {
        if row & (1 << WELL) != 0 {
            run += 1;
            filled += 1;
        } else {
            cover += run;
            run = 0;
        }
    }
    (cover, filled)
}

/// Whether a field has a hole (for the dig phase).
#[must_use]
pub fn has_holes(field: &Field) -> bool {
    let mut covered = 0u16;
    for &row in &field.rows {
        if covered & !row != 0 {
            return true;
        }
        covered |= row;
    }
    false
}

/// The frames on which the input model may start presses, as [`reach`] uses them.
#[must_use]
pub fn press_frames(model: &InputModel) -> Vec<u32> {
    reach::press_frames(model, 5)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every weight zero, for tests that set the one term they look at.
    fn no_terms() -> ScoreWeights {
        ScoreWeights::from_terms(&[0.0; TERM_NAMES.len()])
    }

    /// The benchmark's press frames (30 Hz).
    fn benchmark_presses() -> Vec<u32> {
        press_frames(&InputModel::new("X.", true, 18).unwrap())
    }

    /// The benchmark's context (30 Hz, 18-frame reaction, double speed from level 39, no line
    /// cap) at `level` and BCD `lines`, with the reach ceilings of that timeline.
    fn benchmark_context(level: u8, lines: [u8; 2]) -> Context {
        Context {
            level,
            lines,
            line_cap: None,
            double_speed_level: Some(39),
            speed_up: None,
            ceilings: [16, 15, 12, 6],
            judged: None,
            line_out: false,
            unsafe_clears: 0,
            survival: false,
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 3000,
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// The first stage and its bound: the bound is never below the value, and the value
        /// finished from the first stage is the value to the bit, on boards of any shape, at
        /// each gravity, lining out or not, with the shipped weights, their level-29 band and
        /// weights whose holes, well and tetris-ready terms reward.
        #[test]
        fn the_bound_holds_and_the_finished_value_is_the_value(
            heights in proptest::collection::vec(0u8..=20, 10),
            holes in proptest::collection::vec(
                proptest::prop_oneof![proptest::strategy::Just(0u16), 0u16..0x400],
                20,
            ),
            level in proptest::sample::select(vec![18u8, 19, 29, 39]),
            line_out: bool,
            weights in 0usize..3,
        ) {
            let field = Field::with_columns(&heights, &holes);
            let shipped = ScoreWeights::shipped();
            let w = match weights {
                0 => shipped,
                1 => shipped.band_weights(super::super::bands::Band::FromLevel(29)),
                _ => ScoreWeights {
                    holes: 3.0,
                    hole_rows: 2.0,
                    well_cells: 1.5,
                    locked_well: 4.0,
                    tetris_ready: 50.0,
                    ..shipped
                },
            };
            let ctx = Context {
                line_out,
                ..benchmark_context(level, [0x50, 0x02])
            };
            let presses = benchmark_presses();
            let value = w.board_value(&field, &ctx, &presses);
            let (bound, first) = w.board_value_bound(&field, &ctx).expect("a bound");
            proptest::prop_assert!(value <= bound, "{value} above its bound {bound}");
            let finished = w.finish_board_value(&field, &ctx, &presses, &first);
            proptest::prop_assert_eq!(finished.to_bits(), value.to_bits());
        }

        /// The holes counted from the board before a drop that clears no row are those counted
        /// on the board after it, wherever they are counted so (the well filled or not).
        #[test]
        fn holes_after_a_drop_are_the_holes_of_the_board_after_it(
            heights in proptest::collection::vec(0u8..=16, 10),
            holes in proptest::collection::vec(
                proptest::prop_oneof![proptest::strategy::Just(0u16), 0u16..0x400],
                20,
            ),
            orientation in 0u8..19,
            x in 0i8..10,
        ) {
            let field = Field::with_columns(&heights, &holes);
            proptest::prop_assume!(field.fits(orientation, x, 0));
            let y = field.drop_row(orientation, x, 0);
            let before = Holes::of(&field, false);
            let mut after = field;
            proptest::prop_assume!(after.lock(orientation, x, y) == Some(0));
            if let Some(counted) = before.after_drop(orientation, x, y) {
                proptest::prop_assert_eq!(counted, Holes::of(&after, false));
            }
            proptest::prop_assert!(Holes::of(&field, true).after_drop(orientation, x, y).is_none());
        }
    }

    #[test]
    fn the_bound_is_tight_on_a_tetris_ready_board_and_absent_where_a_later_term_rewards() {
        let ctx = benchmark_context(18, [0, 0]);
        let shipped = ScoreWeights::shipped();
        // Four rows ready for a tetris, the well open and reached, no drought to fear: the
        // later terms add their most, the tetris-ready bonus, and the bound is the value.
        let mut field = Field::default();
        for row in &mut field.rows[16..] {
            *row = FULL_ROW & !(1 << WELL);
        }
        let no_drought = ScoreWeights {
            drought: 0.0,
            ..shipped.clone()
        };
        let (bound, _) = no_drought.board_value_bound(&field, &ctx).unwrap();
        assert_eq!(
            no_drought.board_value(&field, &ctx, &benchmark_presses()),
            bound
        );
        assert!(shipped.board_value_bound(&field, &ctx).is_some());
        for w in [
            ScoreWeights {
                drought: 1.0,
                ..shipped.clone()
            },
            ScoreWeights {
                well_unreachable: 1.0,
                ..shipped.clone()
            },
            ScoreWeights {
                left_unreachable: 1.0,
                ..shipped.clone()
            },
            ScoreWeights {
                surface: -1.0,
                ..shipped.clone()
            },
        ] {
            assert!(w.board_value_bound(&field, &ctx).is_none());
        }
    }

    #[test]
    fn the_shipped_weights_parse() {
        let w = ScoreWeights::shipped();
        assert_eq!(w.terms().len(), TERM_NAMES.len());
        let values: Vec<f64> = w.terms().iter().map(|t| t.1).collect();
        // The terms alone: the bands are not terms.
        assert_eq!(
            ScoreWeights::from_terms(&values),
            ScoreWeights {
                bands: Default::default(),
                ..w
            }
        );
    }

    #[test]
    fn the_shipped_weights_have_a_level_18_band_and_one_from_level_29() {
        use super::super::bands::Band::FromLevel;
        let shipped = ScoreWeights::shipped();
        let bands: Vec<_> = shipped.bands.iter().map(|(b, t)| (b, t.clone())).collect();
        let levels: Vec<_> = bands.iter().map(|(b, _)| *b).collect();
        assert_eq!(levels, [FromLevel(18), FromLevel(19), FromLevel(29)]);
        // Level 18's band (a tuning run's twelve prices) holds at level 18 alone: the empty band
        // from 19 brings the base terms back for levels 19-28.
        assert_eq!(bands[0].1.len(), 12);
        assert!(!bands[0].1.contains_key("safe_height_slow"));
        assert!(bands[1].1.is_empty());
        let gravity = |level| Gravity::with_double_speed(level, Some(39));
        let at_18 = shipped.at_level(18, gravity(18));
        assert_eq!(at_18.height, bands[0].1["height"]);
        assert_ne!(at_18.height, shipped.height);
        assert_eq!(
            *shipped.at_level(19, gravity(19)),
            shipped.band_weights(FromLevel(19))
        );
        assert_eq!(shipped.band_weights(FromLevel(19)).height, shipped.height);
        assert_eq!(
            bands[2].1,
            [("safe_height_fast", 9.0), ("drought_margin", -1.0)]
                .into_iter()
                .collect()
        );
        let at_29 = shipped.band_weights(FromLevel(29));
        assert_eq!(
            (shipped.safe_height_fast, at_29.safe_height_fast),
            (7.0, 9.0)
        );
        assert_eq!((shipped.drought_margin, at_29.drought_margin), (0.0, -1.0));
    }

    #[test]
    fn bad_weights_say_what_is_wrong() {
        let json = serde_json::to_string(&ScoreWeights::shipped()).unwrap();
        let missing = json.replace("\"holes\":", "\"holez\":");
        let e = ScoreWeights::parse(&missing).unwrap_err().to_string();
        assert!(e.contains("holez"), "{e}");
        let extra = json.replacen('{', "{\"extra\":1,", 1);
        let e = ScoreWeights::parse(&extra).unwrap_err().to_string();
        assert!(e.contains("unknown field"), "{e}");
        assert!(ScoreWeights::parse("[1,2]").is_err());
        assert!(ScoreWeights::parse("").is_err());
        // A term given twice: serde_json would keep the second without a word.
        let twice = json.replacen('{', "{\"holes\":-1,", 1);
        let e = ScoreWeights::parse(&twice).unwrap_err().to_string();
        assert!(e.contains("\"holes\" given twice"), "{e}");
        // Heights, line counts and the risk have ranges; prices a bound that keeps sums finite.
        for (from, to, says) in [
            (
                "\"safe_height_slow\":9.0",
                "\"safe_height_slow\":-3",
                "expected 0 to 20 (rows)",
            ),
            (
                "\"line_out_risk\":0.3",
                "\"line_out_risk\":1.5",
                "expected 0 to 1 (a chance)",
            ),
            ("\"endgame_lines\":12.0", "\"endgame_lines\":-1", "(lines)"),
            ("\"holes\":-20.0", "\"holes\":-1.7e308", "(a price)"),
        ] {
            assert!(json.contains(from), "{from}");
            let e = ScoreWeights::parse(&json.replacen(from, to, 1))
                .unwrap_err()
                .to_string();
            assert!(e.contains(says), "{to}: {e}");
        }
        for name in TERM_NAMES {
            let (low, high, _) = term_range(name);
            assert!(term_problem(name, low).is_none() && term_problem(name, high).is_none());
            assert_eq!(clamp_term(name, f64::MAX), high);
            assert!(term_problem(name, f64::NAN).is_some());
        }
    }

    #[test]
    fn the_gravity_speeds_up_at_130_230_and_the_double_speed_level() {
        let mut ctx = benchmark_context(18, [0, 0]);
        let (at, g) = ctx.next_speed_up().unwrap();
        assert_eq!((at, g.drop_speed, g.double), (130, 2, false));
        ctx.level = 28;
        ctx.lines = [0x25, 0x02];
        let (at, g) = ctx.next_speed_up().unwrap();
        assert_eq!((at, g.drop_speed, g.double), (230, 1, false));
        ctx.level = 35;
        ctx.lines = [0x90, 0x02];
        let (at, g) = ctx.next_speed_up().unwrap();
        assert_eq!((at, g.drop_speed, g.double), (330, 1, true));
        ctx.level = 39;
        ctx.lines = [0x30, 0x03];
        assert_eq!(ctx.next_speed_up(), None);
    }

    #[test]
    fn boards_are_judged_under_level_29s_gravity_from_cash_in_lines_before_it() {
        let mut w = ScoreWeights::shipped();
        w.cash_in_lines = 10.0;
        let judged = |level: u8, lines: [u8; 2], w: &ScoreWeights| {
            let ctx = benchmark_context(level, lines);
            let ctx = Context {
                speed_up: ctx.next_speed_up(),
                ..ctx
            };
            let g = w.judging_gravity(&ctx);
            (g.drop_speed, g.double)
        };
        // From level 18: level 28 at 220 lines, level 29 at 230.
        assert_eq!(judged(27, [0x19, 0x02], &w), (2, false));
        assert_eq!(judged(28, [0x20, 0x02], &w), (1, false));
        assert_eq!(judged(28, [0x29, 0x02], &w), (1, false));
        // Not before level 19's speed-up, nor before double speed.
        assert_eq!(judged(18, [0x25, 0x01], &w), (3, false));
        assert_eq!(judged(38, [0x25, 0x03], &w), (1, false));
        // Off at 0.
        w.cash_in_lines = 0.0;
        assert_eq!(judged(28, [0x29, 0x02], &w), (2, false));
    }

    #[test]
    fn the_reach_ceiling_falls_as_the_gravity_and_the_timeline_slow_the_taps() {
        let at = |timeline: &str| {
            Context::ceilings_for(&press_frames(&InputModel::new(timeline, true, 18).unwrap()))
        };
        // 30 Hz: level 18, 19-28, 29+, double speed.
        assert_eq!(at("X."), [16, 15, 12, 6]);
        // 15 Hz: at double speed a vertical I no longer gets to the well over any stack.
        assert_eq!(at("X..."), [14, 12, 6, 0]);
        // Just at the ceiling the I still gets there, one row higher it does not.
        let presses = press_frames(&InputModel::new("X.", true, 18).unwrap());
        let gravity = Gravity::from(29);
        let stack = |h: usize| {
            let mut f = Field::default();
            for row in &mut f.rows[20 - h..] {
                *row = FULL_ROW & !(1 << WELL);
            }
            f
        };
        let reaches =
            |f: &Field| reach::reaches(f, I_HORIZONTAL, I_VERTICAL, WELL as i8, gravity, &presses);
        assert!(reaches(&stack(12)));
        assert!(!reaches(&stack(13)));
    }

    #[test]
    fn a_narrow_well_below_two_rows_is_no_room_for_a_drought() {
        let ctx = Context {
            double_speed_level: None,
            ..benchmark_context(18, [0, 0])
        };
        let mut drought_only = no_terms();
        drought_only.drought = -500.0;
        let presses = benchmark_presses();
        // Columns 2-9 eight rows high; column 1 empty (a well eight deep), or filled to six
        // rows (two deep), or to seven.
        let board = |column_1: usize| {
            let mut f = Field::default();
            for (y, row) in f.rows.iter_mut().enumerate() {
                if y >= 12 {
                    *row = FULL_ROW & !(1 << WELL) & !1;
                }
                if y >= 20 - column_1 {
                    *row |= 1;
                }
            }
            drought_only.board_value(&f, &ctx, &presses)
        };
        // The six rows below a J's or an L's reach take an I, which a drought lacks.
        assert_eq!(board(0), board(6));
        assert!(board(7) < board(6));
    }

    #[test]
    fn a_covered_well_costs_its_cover_not_the_depth_below_it() {
        let ctx = benchmark_context(18, [0, 0]);
        let presses = benchmark_presses();
        let mut holes_only = no_terms();
        holes_only.holes = -20.0;
        holes_only.hole_rows = -8.0;
        holes_only.well_cells = -10.0;
        // Ten rows ready for an I, the well covered by `cover` cells above them.
        let board = |cover: usize| {
            let mut f = Field::default();
            for row in &mut f.rows[10..] {
                *row = FULL_ROW & !(1 << WELL);
            }
            for row in &mut f.rows[10 - cover..10] {
                *row = (1 << WELL) | (1 << 8);
            }
            f
        };
        assert_eq!(well_cover(&board(1)), (1, 1));
        assert_eq!(well_cover(&board(2)), (2, 2));
        // A hole and a hole row per covering cell, and the filled cells of the well.
        let value = |f: &Field, c: &Context| holes_only.board_value(f, c, &presses);
        assert_eq!(value(&board(1), &ctx), -38.0);
        assert_eq!(value(&board(2), &ctx), -76.0);
        // The well filled from the bottom is no cover.
        let mut filled = board(0);
        filled.rows[19] = FULL_ROW;
        assert_eq!(well_cover(&filled), (0, 1));
        assert_eq!(value(&filled, &ctx), -10.0);
        // At double speed the player lines out: the well column's empty cells are holes.
        let double = benchmark_context(40, [0x30, 0x03]);
        assert!(double.gravity().double);
        assert_eq!(value(&board(1), &double), -20.0 * 10.0 - 8.0 * 10.0);
    }

    #[test]
    fn hole_rows_are_counted_in_every_row_of_the_field() {
        let ctx = benchmark_context(18, [0, 0]);
        let presses = benchmark_presses();
        let mut rows_only = no_terms();
        rows_only.hole_rows = -8.0;
        // Column 1 filled but for rows 3 and 19 from the top: two hole rows, sixteen rows
        // apart (a 16-bit row mask took them for one).
        let mut f = Field::default();
        for row in &mut f.rows {
            *row = 1;
        }
        f.rows[2] = 0;
        f.rows[18] = 0;
        assert_eq!(rows_only.board_value(&f, &ctx, &presses), -16.0);
    }

    #[test]
    fn ready_rows_behind_a_cover_with_a_hole_in_its_row_are_locked() {
        let ctx = benchmark_context(18, [0, 0]);
        let presses = benchmark_presses();
        let mut locked_only = no_terms();
        locked_only.locked_well = -20.0;
        let value = |f: &Field, c: &Context| locked_only.board_value(f, c, &presses);
        // Ten rows ready for an I under a row that fills the well but not column 4.
        let mut open = Field::default();
        for row in &mut open.rows[10..] {
            *row = FULL_ROW & !(1 << WELL);
        }
        open.rows[9] = FULL_ROW & !(1 << 3);
        // Column 4 open from above: filling it clears the cover, nothing is locked.
        assert_eq!(value(&open, &ctx), 0.0);
        // A cell over column 4: that hole must be dug first, the ten rows below wait.
        let mut locked = open;
        locked.rows[8] = 1 << 3;
        assert_eq!(value(&locked, &ctx), -200.0);
        // At double speed the player lines out and keeps no well.
        let double = benchmark_context(40, [0x30, 0x03]);
        assert_eq!(value(&locked, &double), 0.0);
    }

    /// `w` with the terms that judge the well (its cells, the drought, tetris readiness, the
    /// well's reach) made heavier: a board judged lining out does not see them.
    fn with_heavier_well_terms(w: &ScoreWeights) -> ScoreWeights {
        let mut heavy = w.clone();
        heavy.well_cells *= 3.0;
        heavy.drought *= 3.0;
        heavy.tetris_ready += 50.0;
        heavy.well_unreachable *= 3.0;
        heavy
    }

    /// Columns 1-9 filled to `rows` rows, the well open.
    fn ready_rows(rows: usize) -> Field {
        let mut f = Field::default();
        for row in &mut f.rows[20 - rows..] {
            *row = FULL_ROW & !(1 << WELL);
        }
        f
    }

    #[test]
    fn the_drought_risk_is_the_chance_of_no_i_in_the_pieces_the_room_takes() {
        let w = ScoreWeights::shipped();
        // Levels 19-28 at 30 Hz: the reach ceiling is 15 rows, so twelve ready rows leave
        // 9 × 3 free cells, room for 6.75 pieces.
        let ctx = benchmark_context(24, [0x80, 0x01]);
        let risk = |rows: usize| w.drought_risk(&ready_rows(rows).heights(), &ctx);
        assert!((risk(12) - (6.0f64 / 7.0).powf(27.0 / 4.0)).abs() < 1e-12);
        assert!((risk(10) - (6.0f64 / 7.0).powf(45.0 / 4.0)).abs() < 1e-12);
        // No room at all: no chance.
        assert_eq!(risk(15), 1.0);
        // The drought term is that chance, weighted.
        let mut drought_only = no_terms();
        drought_only.drought = -500.0;
        let presses = benchmark_presses();
        let value = drought_only.board_value(&ready_rows(12), &ctx, &presses);
        assert!((value + 500.0 * risk(12)).abs() < 1e-9);
    }

    #[test]
    fn a_decision_lines_out_when_a_drought_would_fill_the_stack() {
        let w = ScoreWeights::shipped();
        assert!(w.line_out_risk > 0.0);
        let ctx = benchmark_context(24, [0x80, 0x01]);
        // Twelve ready rows at levels 19-28: a 35 % chance that no I comes before the room is
        // gone. Ten rows: 18 %.
        assert!(w.lines_out(&ready_rows(12), &ctx));
        assert!(!w.lines_out(&ready_rows(10), &ctx));
        // Never at 0; at double speed the player lines out anyway.
        let never = ScoreWeights {
            line_out_risk: 0.0,
            ..w.clone()
        };
        assert!(!never.lines_out(&ready_rows(12), &ctx));
        let double = benchmark_context(40, [0x30, 0x03]);
        assert!(!w.lines_out(&ready_rows(12), &double));
        // Lining out, a board is judged as at double speed: the well's terms do not count and
        // burns are free.
        let lining_out = Context {
            line_out: true,
            ..ctx
        };
        let presses = benchmark_presses();
        let well_heavy = with_heavier_well_terms(&w);
        let mut field = ready_rows(6);
        field.rows[13] = 1 << WELL;
        assert_ne!(
            w.board_value(&field, &ctx, &presses),
            well_heavy.board_value(&field, &ctx, &presses)
        );
        assert_eq!(
            w.board_value(&field, &lining_out, &presses),
            well_heavy.board_value(&field, &lining_out, &presses)
        );
        let points_only = |c: &Context| {
            let after = c.after(1);
            w.points * f64::from(rules::line_clear_points(1, after.level)) / 1000.0
        };
        assert_eq!(w.clear_reward(1, &lining_out, false), points_only(&ctx));
        assert!(w.clear_reward(1, &ctx, false) < points_only(&ctx));
    }

    #[test]
    fn at_double_speed_a_well_is_kept_over_a_stack_no_higher_than_double_speed_well() {
        let shipped = ScoreWeights::shipped();
        let w = ScoreWeights {
            double_speed_well: 6.0,
            ..shipped.clone()
        };
        let double = benchmark_context(40, [0x30, 0x03]);
        // Up to six rows the decision keeps the well, above it lines out.
        assert!(!w.lines_out(&ready_rows(6), &double));
        assert!(w.lines_out(&ready_rows(7), &double));
        assert!(!shipped.lines_out(&ready_rows(4), &double));
        // Kept, the well's terms count there and a burn costs; at 0 neither.
        let presses = benchmark_presses();
        let mut field = ready_rows(4);
        field.rows[15] = 1 << WELL;
        let heavy = with_heavier_well_terms(&w);
        assert_ne!(
            w.board_value(&field, &double, &presses),
            heavy.board_value(&field, &double, &presses)
        );
        let shipped_heavy = with_heavier_well_terms(&shipped);
        assert_eq!(
            shipped.board_value(&field, &double, &presses),
            shipped_heavy.board_value(&field, &double, &presses)
        );
        assert!(w.clear_reward(1, &double, false) < shipped.clear_reward(1, &double, false));
    }

    #[test]
    fn a_tetris_is_worth_more_than_four_singles() {
        let w = ScoreWeights::shipped();
        let ctx = Context {
            double_speed_level: None,
            ..benchmark_context(18, [0, 0])
        };
        assert!(w.clear_reward(4, &ctx, false) > 4.0 * w.clear_reward(1, &ctx, false));
    }

    #[test]
    fn with_a_learned_value_a_clear_is_worth_its_points_and_a_board_its_value() {
        let mut coefficients = [[0.0; learned::FEATURES]; 4];
        coefficients[0][0] = 5.0; // the bias of level 18's gravity
        coefficients[0][1] = 0.5; // half the terms' value
        let w = ScoreWeights {
            value: Some(LearnedValue::linear(coefficients)),
            ..ScoreWeights::shipped()
        };
        let ctx = Context {
            double_speed_level: None,
            ..benchmark_context(18, [0, 0])
        };
        // Exactly the points `addLineClearPoints` adds, in thousands: no burn cost, no bonus.
        assert_eq!(w.clear_reward(4, &ctx, false), 22.8);
        assert_eq!(w.clear_reward(1, &ctx, true), 0.76);
        let mut field = Field::default();
        field.rows[19] = 0b01_1111_1110;
        let presses = benchmark_presses();
        let terms = ScoreWeights::shipped().board_value(&field, &ctx, &presses);
        let value = w.board_value(&field, &ctx, &presses);
        assert!(
            (value - (5.0 + 0.5 * terms)).abs() < 1e-9,
            "{value} {terms}"
        );
        let sum: f64 = w
            .board_terms(&field, &ctx, &presses)
            .iter()
            .map(|t| t.value)
            .sum();
        assert!((sum - value).abs() < 1e-9);
        // Where the points count no more, the terms decide, as without a learned value.
        let survival = Context {
            survival: true,
            ..ctx
        };
        assert_eq!(
            w.board_value(&field, &survival, &presses),
            ScoreWeights::shipped().board_value(&field, &survival, &presses)
        );
        assert_eq!(w.clear_reward(4, &survival, false), 0.0);
        // A band's weights keep the value.
        let unbanded = ScoreWeights {
            bands: Default::default(),
            ..w.clone()
        };
        let banded = ScoreWeights::parse(&serde_json::to_string(&unbanded).unwrap().replacen(
            '{',
            r#"{"bands":{"29":{"tetris":60.0}},"#,
            1,
        ))
        .unwrap();
        assert_eq!(
            banded
                .band_weights(crate::nes::bands::Band::FromLevel(29))
                .tetris,
            60.0
        );
        assert_eq!(
            banded
                .band_weights(crate::nes::bands::Band::FromLevel(29))
                .value,
            w.value
        );
        // A value that rates only other gravities leaves level 18 to the terms and their
        // clear rewards.
        let mut elsewhere = LearnedValue::linear(coefficients);
        elsewhere.rates = [false, false, true, true];
        let partial = ScoreWeights {
            value: Some(elsewhere),
            ..ScoreWeights::shipped()
        };
        assert_eq!(partial.board_value(&field, &ctx, &presses), terms);
        assert_eq!(
            partial.clear_reward(4, &ctx, false),
            ScoreWeights::shipped().clear_reward(4, &ctx, false)
        );
    }

    #[test]
    fn a_decision_judges_every_board_under_one_gravity() {
        let w = ScoreWeights::shipped();
        let input = InputModel::new("X.", true, 18).unwrap();
        let presses = press_frames(&input);
        let mut near = Context {
            level: 38,
            lines: [0x27, 0x03],
            line_cap: Some(430),
            double_speed_level: Some(39),
            speed_up: None,
            ceilings: Context::ceilings_for(&presses),
            judged: None,
            line_out: false,
            unsafe_clears: 0,
            survival: false,
        };
        // A stack of eight rows in columns 1-9, the well open.
        let mut field = Field::default();
        for row in &mut field.rows[12..] {
            *row = FULL_ROW & !(1 << WELL);
        }
        let value = |c: &Context| w.board_value(&field, c, &presses);
        // Each board under its own gravity: the same board after the lines that bring double
        // speed is worth less than before them, a cliff that pays for putting them off.
        assert!(near.after(4).gravity().double);
        assert!(value(&near.after(4)) < value(&near.after(0)));
        // Under the decision's gravity both are judged alike.
        near.judged = Some(near.gravity());
        assert_eq!(value(&near.after(4)), value(&near.after(0)));
        // A burn after the speed-up costs what it costs under the decision's gravity (burns are
        // free at double speed).
        let mut own = near.after(3);
        own.judged = None;
        assert!(own.gravity().double);
        assert!(w.clear_reward(1, &own, false) > w.clear_reward(1, &near.after(3), false));
    }

    #[test]
    fn at_double_speed_the_player_lines_out_and_keeps_the_sides_fillable() {
        let input = InputModel::new("X.", true, 18).unwrap();
        let presses = press_frames(&input);
        let context = |level: u8| Context {
            level,
            lines: [0x50, 0x03],
            line_cap: Some(430),
            double_speed_level: Some(39),
            speed_up: None,
            ceilings: Context::ceilings_for(&presses),
            judged: None,
            line_out: false,
            unsafe_clears: 0,
            survival: false,
        };
        let (slow, double) = (context(38), context(40));
        assert!(double.gravity().double && !slow.gravity().double);
        let w = ScoreWeights::shipped();
        // The well's terms count before double speed and not at it.
        let well_heavy = with_heavier_well_terms(&w);
        let mut field = Field::default();
        for row in &mut field.rows[17..] {
            *row = FULL_ROW & !(1 << WELL);
        }
        field.rows[16] = 1 << WELL;
        assert_ne!(
            w.board_value(&field, &slow, &presses),
            well_heavy.board_value(&field, &slow, &presses)
        );
        assert_eq!(
            w.board_value(&field, &double, &presses),
            well_heavy.board_value(&field, &double, &presses)
        );
        // A side column lower than its neighbour costs at double speed only, per row of gap.
        let mut edge_only = no_terms();
        edge_only.double_speed_edge_gaps = -10.0;
        let mut gaps = Field::default();
        gaps.rows[19] = FULL_ROW & !1 & !(1 << WELL);
        gaps.rows[18] = FULL_ROW & !1 & !(1 << WELL) & !(1 << 8);
        // Column 1 two rows below column 2, column 10 one row below column 9.
        assert_eq!(edge_only.board_value(&gaps, &double, &presses), -30.0);
        assert_eq!(edge_only.board_value(&gaps, &slow, &presses), 0.0);
    }
}
