//! Whole games from power-on: the menus, then the player piece by piece, through the gamepad
//! only (nothing is written into game memory, but for the tuning's dealt pieces,
//! [`continue_game_dealt`], which is not the ROM's game and says so).

use playfield_nes::{
    Buttons, ClearPlay, CpuPhase, Crash, Events, GameMode, GameSetup, GameType, LAG_FROM_LEVEL,
    MenuDriver, Nes, PhaseChoice, PhaseCounts, PlayState, Unsupported,
};
use serde::Serialize;
use thiserror::Error;

use super::player::{Decision, Player, Situation, Workspace};
use super::search::PieceState;

/// Frames the level menu may wait before Start, picked by the seed (the RNG steps every frame,
/// and more than once per frame on the level menu, so each wait gives another piece sequence).
pub const MAX_MENU_WAIT: u64 = 1024;

/// A bad game setting.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum GameConfigError {
    /// Start level outside the menu's 0-19.
    #[error("start level {0} is not allowed: the level menu offers 0-19 (10-19 = A held + Start)")]
    Level(u8),
    /// B-type height outside 0-5.
    #[error("height {0} is not allowed: B-type heights are 0-5")]
    Height(u8),
    /// Music outside 0-3.
    #[error("music {0} is not allowed: 0-2 are the three tunes, 3 is off")]
    Music(u8),
    /// A line cap of zero lines.
    #[error("line cap 0 is not allowed: the game would end before it starts (use 1 or more)")]
    LineCap,
    /// A double-speed level the game is already past at its start.
    #[error(
        "double-speed level {double} is below the start level {start}: it must be at least the start level"
    )]
    DoubleSpeedLevel {
        /// The double-speed level.
        double: u8,
        /// The start level.
        start: u8,
    },
}

/// What game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameConfig {
    /// A-type or B-type.
    pub game_type: GameType,
    /// Start level 0-19.
    pub level: u8,
    /// B-type start height 0-5.
    pub height: u8,
    /// Music 0-3 (3 = off).
    pub music: u8,
    /// Picks how many frames the level menu waits before Start (and so the pieces).
    pub seed: u64,
    /// Stop once this many lines are cleared.
    pub max_lines: Option<u32>,
    /// Stop after this many frames from power-on.
    pub max_frames: Option<u64>,
    /// Stop once the ROM's score reaches 999,999, for measuring how often a player maxes out
    /// without playing on. The player does not see it: up to there the game is the full game.
    pub stop_at_max_score: bool,
    /// The double-speed benchmark option (`playfield_nes::Modifiers`): from this level the piece
    /// falls two rows a frame. `None`: the ROM.
    pub double_speed_level: Option<u8>,
    /// Play one of the held-out games: the level menu waits [`MAX_MENU_WAIT`] frames more
    /// (1,024-2,047 instead of 0-1,023), so the seed picks among 1,024 other piece sequences
    /// than the benchmark's. The game is the ROM's; only the wait differs. What a player was
    /// tuned or chosen on is the benchmark's games, and these check it on games it was not.
    pub held_out: bool,
    /// The game is scored by the ROM's own score, capped at 999,999 (the unmodified game's
    /// maxout): once it is there, points count no more and the player plays to survive (it
    /// lines out, and a clear is worth only the board it leaves). `false`: the points go on
    /// counting (the uncapped score), as in the BetaTetris format.
    pub survive_at_max_score: bool,
}

impl GameConfig {
    /// An A-type game at `level` with music off.
    #[must_use]
    pub fn a_type(level: u8, seed: u64) -> Self {
        GameConfig {
            game_type: GameType::A,
            level,
            height: 0,
            music: 3,
            seed,
            max_lines: None,
            max_frames: None,
            stop_at_max_score: false,
            double_speed_level: None,
            held_out: false,
            survive_at_max_score: false,
        }
    }

    /// Checks the settings: those the menus can reach, and the caps and modifiers.
    ///
    /// # Errors
    /// When a level, height or music is out of the menus' range, the line cap is 0, or the
    /// double-speed level is below the start level.
    pub fn validate(&self) -> Result<(), GameConfigError> {
        if self.level > 19 {
            return Err(GameConfigError::Level(self.level));
        }
        if self.height > 5 {
            return Err(GameConfigError::Height(self.height));
        }
        if self.music > 3 {
            return Err(GameConfigError::Music(self.music));
        }
        if self.max_lines == Some(0) {
            return Err(GameConfigError::LineCap);
        }
        if let Some(double) = self.double_speed_level
            && double < self.level
        {
            return Err(GameConfigError::DoubleSpeedLevel {
                double,
                start: self.level,
            });
        }
        Ok(())
    }

    /// Frames to wait on the level menu before pressing anything: 0-1,023, or 1,024-2,047 for
    /// a held-out game ([`GameConfig::held_out`]).
    #[must_use]
    pub fn menu_wait(&self) -> u64 {
        split_mix(self.seed) % MAX_MENU_WAIT + if self.held_out { MAX_MENU_WAIT } else { 0 }
    }

    /// What the menus are set to.
    #[must_use]
    pub fn setup(&self) -> GameSetup {
        GameSetup {
            game_type: self.game_type,
            music: self.music,
            level: self.level,
            height: self.height,
        }
    }

    /// The engine's menu driver for this game: the settings, and the seed's wait.
    #[must_use]
    pub fn menu_driver(&self) -> MenuDriver {
        MenuDriver::new(self.setup(), self.menu_wait())
    }
}

/// SplitMix64 as a function: a seed's frames to wait, and per-game seeds from a run's seed.
pub use playfield_rng::split_mix;

/// The smallest game seed whose level-menu wait ([`GameConfig::menu_wait`]) is `wait` frames,
/// `wait` taken modulo [`MAX_MENU_WAIT`]: one seed for each of the benchmark's 1,024 games (each
/// is below 7,000; the bench tests find all 1,024). 1,020 of those games are distinct: waits
/// 0-5 start only two (`tests/it/nes_start.rs`).
#[must_use]
pub fn seed_with_menu_wait(wait: u64) -> u64 {
    let wait = wait % MAX_MENU_WAIT;
    (0..u64::MAX)
        .find(|&seed| split_mix(seed) % MAX_MENU_WAIT == wait)
        .unwrap_or_default()
}

/// The seed of game `index` of a batch started from `batch_seed` (game 0 is the first). It
/// depends on nothing else (not on threads or order), so a batch's printed per-game seed,
/// given as the seed of a single game, replays exactly that game.
#[must_use]
pub fn game_seed(batch_seed: u64, index: u64) -> u64 {
    split_mix(split_mix(batch_seed) ^ index)
}

/// Why a game stopped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GameEnd {
    /// A piece spawned on the stack.
    TopOut,
    /// The line cap was reached.
    LineCap,
    /// The frame cap was reached.
    FrameCap,
    /// The score reached 999,999 and the game was stopped there
    /// ([`GameConfig::stop_at_max_score`]).
    MaxedOut,
    /// A B-type game cleared its 25 lines.
    BTypeComplete,
    /// The game crashed, as the ROM does at the highest levels.
    #[serde(serialize_with = "as_text")]
    Crash(Crash),
    /// The game froze: from this frame on every frame lagged, [`FROZEN_AFTER_LAG_FRAMES`] in a
    /// row, and the game was stopped there (the ROM might yet go on). At the highest levels the frame that adds the points can take longer than the
    /// frames it spans: the NMI that interrupts the score loop redraws the score with its
    /// counter, `generalCounter`, and the loop then runs as many passes more as that byte says,
    /// past the next NMI again, and so on; the ROM in tetanes does the same.
    Frozen {
        /// The first of the lag frames.
        since: u64,
    },
    /// The engine stopped at a state it does not model.
    #[serde(serialize_with = "as_text")]
    Unsupported(Unsupported),
    /// The frame observer (e.g. the ROM in lockstep) stopped the game, for the reason it gave.
    Stopped(String),
    /// A planned move did not lock where the search said: a search/engine mismatch.
    #[serde(serialize_with = "as_text")]
    Mismatch(Mismatch),
}

/// A piece that did not lock where its plan said.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
#[error("frame {frame}: planned lock (x, y, orientation) = {planned:?}, engine {engine:?}")]
pub struct Mismatch {
    /// The frame the piece locked on (input lines since power-on).
    pub frame: u64,
    /// Where the plan said it would lock: `tetriminoX`, `tetriminoY`, `currentPiece`.
    pub planned: (u8, u8, u8),
    /// Where the engine locked it.
    pub engine: (u8, u8, u8),
}

/// Serializes a reason by its message (the JSON report's text).
fn as_text<S: serde::Serializer>(
    reason: &impl std::fmt::Display,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_str(reason)
}

/// The frames of a game after which the next NMI crashes the game on some consoles (CPU phases)
/// but not on all: the game went on as the consoles on which it survives do
/// ([`PhaseChoice::Surviving`]), and each such frame is counted here, never passed silently.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CrashRisk {
    /// Frames whose next NMI crashes the game in some phases.
    pub frames: u32,
    /// The most phases that crash at one of those frames (of [`CrashRisk::phases`]).
    pub most_phases: u8,
    /// The phases evaluated at each frame (every phase a console can be in; 0 before the first
    /// frame evaluated).
    pub phases: u8,
    /// The first such frame (input lines since power-on).
    pub first_frame: Option<u64>,
}

impl CrashRisk {
    /// Counts the frame `nes` just stepped if it crashes in some phases but not all (a frame
    /// that crashes in every phase ends the game: [`Nes::crash`]).
    pub fn observe(&mut self, nes: &Nes) {
        self.observe_counts(nes.frame(), nes.phase_counts());
    }

    /// Counts `frame` by how its next NMI lands in every phase, when the frame was evaluated
    /// (for a game whose engine was told its console's phase, from a copy that was not).
    pub fn observe_counts(&mut self, frame: u64, counts: Option<PhaseCounts>) {
        let Some(counts) = counts else {
            return;
        };
        self.phases = counts.phases;
        if counts.crash > 0 && counts.crash < counts.phases {
            self.frames += 1;
            self.most_phases = self.most_phases.max(counts.crash);
            self.first_frame.get_or_insert(frame);
        }
    }

    /// Adds another game's count (a batch's total).
    pub fn add(&mut self, other: &CrashRisk) {
        self.frames += other.frames;
        self.most_phases = self.most_phases.max(other.most_phases);
        self.phases = self.phases.max(other.phases);
        self.first_frame = match (self.first_frame, other.first_frame) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
}

impl std::fmt::Display for CrashRisk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.frames == 0 {
            return write!(f, "no crash risk");
        }
        write!(
            f,
            "crash risk: {} frame{} crashing in some phases (at most {} of {})",
            self.frames,
            if self.frames == 1 { "" } else { "s" },
            self.most_phases,
            self.phases
        )
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Score (decimal).
    pub score: u32,
    /// Lines cleared, counted as the level-ups count them past 999 too ([`Nes::line_count`];
    /// B-type: the lines still to clear, counting down from 25).
    pub lines: u32,
    /// `levelNumber` at the end.
    pub level: u8,
    /// Frames from power-on (input lines).
    pub frames: u64,
    /// Pieces locked.
    pub pieces: u32,
    /// Why it stopped.
    pub end: GameEnd,
    /// Every frame's buttons from power-on (the movie).
    pub input: Vec<Buttons>,
    /// The score without the ROM's 999,999 cap (equal to `score` below it).
    pub uncapped_score: u64,
    /// Line clears by size: singles, doubles, triples, tetrises.
    pub clears: [u32; 4],
    /// After each line clear: (lines, uncapped score), for score-by-lines curves.
    pub score_by_lines: Vec<(u32, u64)>,
    /// Wall-clock time the player spent deciding, per piece, in microseconds (one thread).
    pub decision_micros: Vec<u32>,
    /// The frames that crash on some consoles but not all, which the game went on past.
    pub crash_risk: CrashRisk,
    /// The level went past 255 and wrapped to 0 (the "rebirth").
    pub level_wrapped: bool,
}

impl GameResult {
    /// A game the frame observer stopped before its first frame, for `why` (the ROM in lockstep
    /// did not start).
    #[must_use]
    pub fn stopped(why: String) -> GameResult {
        GameResult {
            score: 0,
            lines: 0,
            level: 0,
            frames: 0,
            pieces: 0,
            end: GameEnd::Stopped(why),
            input: Vec::new(),
            uncapped_score: 0,
            clears: [0; 4],
            score_by_lines: Vec::new(),
            decision_micros: Vec::new(),
            crash_risk: CrashRisk::default(),
            level_wrapped: false,
        }
    }

    /// The uncapped score when the game first reached `lines` lines (`None` if it ended before).
    #[must_use]
    pub fn score_at_lines(&self, lines: u32) -> Option<u64> {
        self.score_by_lines
            .iter()
            .find(|&&(l, _)| l >= lines)
            .map(|&(_, s)| s)
    }

    /// Share of the cleared lines that came from tetrises.
    #[must_use]
    pub fn tetris_rate(&self) -> f64 {
        let lines: u32 = self
            .clears
            .iter()
            .enumerate()
            .map(|(i, &n)| (i as u32 + 1) * n)
            .sum();
        if lines == 0 {
            0.0
        } else {
            f64::from(4 * self.clears[3]) / f64::from(lines)
        }
    }

    /// Lines cleared by singles, doubles and triples.
    #[must_use]
    pub fn burned_lines(&self) -> u32 {
        self.clears[0] + 2 * self.clears[1] + 3 * self.clears[2]
    }
}

/// The active piece's plan.
struct PiecePlan {
    /// Frames since the piece came under control.
    frame: u32,
    inputs: std::collections::VecDeque<Buttons>,
    /// The lock the plan leads to, checked against the engine.
    target: Option<(u8, u8, u8)>,
    /// Whether the plan was made knowing the preview piece.
    informed: bool,
    /// False while the player waits out the game's opening delay before planning.
    planned: bool,
}

/// `autorepeatY` (negative during the first piece's 96-frame opening delay) from which the player
/// plans the first piece. It waits until then: the piece cannot fall during the delay, so nothing
/// is lost, and a search through the whole delay would visit millions of states.
const OPENING_DELAY_PLAN_AT: i8 = -2;

/// Powers on and goes through the menus until the first piece is under control (the state a
/// search starts from). Returns the engine and every frame's buttons so far; `None` when the
/// engine stopped first (it should not).
#[must_use]
pub fn start_game(config: &GameConfig) -> Option<(Nes, Vec<Buttons>)> {
    start_game_from(Nes::power_on(), Vec::new(), config)
}

/// Powers on and goes through the menus with `config`'s game type and music until the level
/// menu appears: the part of [`start_game`] that does not depend on the seed (the seed only
/// picks how long the level menu waits), so callers that start many games can run it once and
/// go on with [`start_game_from`].
#[must_use]
pub fn reach_level_menu(config: &GameConfig) -> Option<(Nes, Vec<Buttons>)> {
    let mut nes = Nes::power_on();
    let mut input = Vec::new();
    let reached = config
        .menu_driver()
        .drive_until(&mut nes, &mut input, 20_000, |n| {
            n.game_mode() == GameMode::LevelMenu
        });
    reached.then_some((nes, input))
}

/// Frames of the level menu's wait between two states of [`LevelMenuWaits`].
const WAIT_STRIDE: u64 = 32;

/// The level menu [`reach_level_menu`] reaches for a game type and music, and the same after
/// every [`WAIT_STRIDE`] frames of the wait the menu driver makes there before it presses
/// anything. A game started from the nearest of them runs under [`WAIT_STRIDE`] frames of its
/// wait instead of up to [`MAX_MENU_WAIT`], and its frames are [`start_game`]'s: while it waits
/// the driver presses nothing, and the rest of the wait is a driver's whole wait from there.
#[derive(Clone, Debug)]
pub struct LevelMenuWaits {
    /// The engine and every frame's buttons after `i × WAIT_STRIDE` frames of the wait.
    states: Vec<(Nes, Vec<Buttons>)>,
}

impl LevelMenuWaits {
    /// The waits for `config`'s game type and music (its level, height and seed do not matter);
    /// `None` when the engine does not reach the level menu (it should).
    #[must_use]
    pub fn new(config: &GameConfig) -> Option<LevelMenuWaits> {
        let (mut nes, mut input) = reach_level_menu(config)?;
        let mut states = vec![(nes.clone(), input.clone())];
        'waits: for _ in 1..MAX_MENU_WAIT.div_ceil(WAIT_STRIDE) {
            for _ in 0..WAIT_STRIDE {
                // What the driver does while it waits: nothing pressed, on the level menu.
                if nes.game_mode() != GameMode::LevelMenu || nes.unsupported().is_some() {
                    break 'waits;
                }
                nes.step(Buttons::NONE);
                input.push(Buttons::NONE);
            }
            states.push((nes.clone(), input.clone()));
        }
        Some(LevelMenuWaits { states })
    }

    /// [`start_game`] for `config`, whose game type and music are those the waits were made for.
    #[must_use]
    pub fn start_game(&self, config: &GameConfig) -> Option<(Nes, Vec<Buttons>)> {
        let wait = config.menu_wait();
        let index = usize::try_from(wait / WAIT_STRIDE)
            .unwrap_or(usize::MAX)
            .min(self.states.len() - 1);
        let (mut nes, mut input) = self.states[index].clone();
        // After one frame of waiting or more the last buttons are nothing, as when the whole
        // wait is run; from the level menu itself this is `start_game_from`.
        let waited = index as u64 * WAIT_STRIDE;
        let started = MenuDriver::new(config.setup(), wait - waited).drive_until(
            &mut nes,
            &mut input,
            20_000,
            first_piece_under_control,
        );
        started.then_some((nes, input))
    }
}

/// Whether the first piece is under control: where [`start_game`] stops.
fn first_piece_under_control(n: &Nes) -> bool {
    n.controllable()
}

/// [`start_game`] resumed from `nes`, whose frames so far are `input`: power-on, or the state
/// [`reach_level_menu`] returns for the same game type and music (the menus are driven from the
/// engine's state, so the result is the same frames as [`start_game`]).
#[must_use]
pub fn start_game_from(
    mut nes: Nes,
    mut input: Vec<Buttons>,
    config: &GameConfig,
) -> Option<(Nes, Vec<Buttons>)> {
    // The menus take well under 5,000 frames even with the longest wait. In play before the
    // first piece is under control the driver presses nothing.
    let started =
        config
            .menu_driver()
            .drive_until(&mut nes, &mut input, 20_000, first_piece_under_control);
    started.then_some((nes, input))
}

/// A console run beside the engine as a game is played, frame by frame: the ROM in tetanes in
/// lockstep. It runs each frame first and tells the engine the CPU phase it had, so that where
/// the outcome depends on the phase (a lag frame's length, a crash) the game goes on as on that
/// console, and its movie replays there; then it checks the engine's frame against its own.
pub trait Console {
    /// Runs the frame's `buttons`; `nes` is the engine before the frame. Returns the CPU phase
    /// the console had, where the engine's lag model can use it (`None` elsewhere).
    ///
    /// # Errors
    /// Why the game cannot go on (the console failed); the game stops with it.
    fn run(&mut self, buttons: Buttons, nes: &Nes) -> Result<Option<CpuPhase>, String>;

    /// Checks `nes`, which has just run the same frame, against the console.
    ///
    /// # Errors
    /// The first difference; the game stops with it.
    fn check(&mut self, nes: &Nes) -> Result<(), String>;
}

/// A [`Console`] that runs nothing and calls `observe(buttons, &nes)` after every frame.
struct Observer<F> {
    observe: F,
    buttons: Buttons,
}

impl<F: FnMut(Buttons, &Nes) -> Result<(), String>> Console for Observer<F> {
    fn run(&mut self, buttons: Buttons, _: &Nes) -> Result<Option<CpuPhase>, String> {
        self.buttons = buttons;
        Ok(None)
    }

    fn check(&mut self, nes: &Nes) -> Result<(), String> {
        (self.observe)(self.buttons, nes)
    }
}

/// Plays one game with `player`, calling `observe(buttons, &nes)` after every frame; an `Err`
/// from it stops the game. Lag frames and crashes are not modelled: see [`play_game_with_rom`].
pub fn play_game(
    config: &GameConfig,
    player: &Player,
    observe: impl FnMut(Buttons, &Nes) -> Result<(), String>,
) -> GameResult {
    play_game_with_rom(config, player, None, observe)
}

/// [`play_game`] with the ROM's program, which the engine's lag model runs at the highest
/// levels (`Nes::set_program_data`): without it lag frames and crashes are not modelled.
pub fn play_game_with_rom(
    config: &GameConfig,
    player: &Player,
    program: Option<std::sync::Arc<playfield_nes::ProgramData>>,
    observe: impl FnMut(Buttons, &Nes) -> Result<(), String>,
) -> GameResult {
    let console = Observer {
        observe,
        buttons: Buttons::NONE,
    };
    play_game_beside(config, player, program, console)
}

/// [`play_game_with_rom`] with a [`Console`] run beside the engine, whose CPU phase the engine
/// follows.
pub fn play_game_beside(
    config: &GameConfig,
    player: &Player,
    program: Option<std::sync::Arc<playfield_nes::ProgramData>>,
    console: impl Console,
) -> GameResult {
    let mut nes = Nes::power_on();
    nes.set_program_data(program);
    nes.set_modifiers(playfield_nes::Modifiers {
        double_speed_level: config.double_speed_level,
        ..playfield_nes::Modifiers::default()
    });
    continue_game_beside(nes, Vec::new(), config, player, console, None)
}

/// [`play_game`] from a state of one of `config`'s games, whose frames so far are `input`: the
/// engine's modifiers and program are `nes`'s own. The state must be one where [`play_game`]
/// holds no plan: power-on, or in play after a piece locked and before the next is under
/// control; from there the frames are those [`play_game`] plays (the saved positions of
/// [`super::segments`] are cut there). The result's clears, curve and decisions count from
/// the state on.
pub fn continue_game(
    nes: Nes,
    input: Vec<Buttons>,
    config: &GameConfig,
    player: &Player,
    observe: impl FnMut(Buttons, &Nes) -> Result<(), String>,
) -> GameResult {
    let console = Observer {
        observe,
        buttons: Buttons::NONE,
    };
    continue_game_beside(nes, input, config, player, console, None)
}

/// Pieces dealt from a sequence of their own instead of the ROM's randomizer: each drawn with
/// the randomizer's transition probabilities from the piece before it (a draw of 0-7; 7 or a
/// repeat of the last piece draws again, once, the last orientation id plus 0-7 modulo 7), from
/// a seed of its own. A tuning aid, not the game: on the ROM the pieces depend on the frame
/// each spawns on (`rng_seed` steps every frame), so two players from the same position see
/// other pieces as soon as their timing differs, and that luck is most of the spread between
/// them. Dealt, every player from a position meets the same pieces in the same order.
#[derive(Clone, Debug)]
pub struct PieceDealer {
    rng: playfield_rng::SplitMix64,
    /// Piece index (T J Z O S L I) of the last piece dealt (or of the preview at the start).
    last: usize,
}

impl PieceDealer {
    /// A dealer whose first piece follows the preview `next` (its piece index).
    #[must_use]
    pub fn new(seed: u64, next: usize) -> PieceDealer {
        PieceDealer {
            rng: playfield_rng::SplitMix64::new(seed),
            last: next,
        }
    }

    /// The next piece's index.
    pub fn deal(&mut self) -> usize {
        use playfield_nes::tables::SPAWN_TABLE;
        let last_id = SPAWN_TABLE[self.last];
        let first = self.rng.below(8) as usize;
        let piece = if first != 7 && SPAWN_TABLE[first] != last_id {
            first
        } else {
            (self.rng.below(8) as usize + usize::from(last_id)) % 7
        };
        self.last = piece;
        piece
    }
}

/// [`continue_game`] with the pieces dealt by `dealer` from the next spawn on (the preview of
/// the state is the ROM's): at each spawn the new preview (`nextPiece`) is written over by the
/// dealer's piece. Not the ROM's game: for comparing players on the same pieces (the tuning's
/// segments); every game a benchmark reports is the ROM's.
pub fn continue_game_dealt(
    nes: Nes,
    input: Vec<Buttons>,
    config: &GameConfig,
    player: &Player,
    dealer: PieceDealer,
    observe: impl FnMut(Buttons, &Nes) -> Result<(), String>,
) -> GameResult {
    let console = Observer {
        observe,
        buttons: Buttons::NONE,
    };
    continue_game_beside(nes, input, config, player, console, Some(dealer))
}

/// [`continue_game`] with a [`Console`] run beside the engine (and, for the tuning only, pieces
/// dealt by `dealer`).
fn continue_game_beside(
    mut nes: Nes,
    mut input: Vec<Buttons>,
    config: &GameConfig,
    player: &Player,
    mut console: impl Console,
    mut dealer: Option<PieceDealer>,
) -> GameResult {
    // A frame that crashes on some consoles is a risk, counted; the game goes on as on the
    // consoles where it survives (what most of them do), and ends only where every one crashes.
    nes.set_phase_choice(PhaseChoice::Surviving);
    let mut crash_risk = CrashRisk::default();
    let mut level_wrapped = false;
    let mut last_level = nes.level();
    let mut ws = Workspace::new();
    let mut clears = [0u32; 4];
    let mut score_by_lines = Vec::new();
    let mut decision_micros = Vec::new();
    let mut piece_micros = 0u32;
    let mut menus = config.menu_driver();
    let mut prev = input.last().copied().unwrap_or(Buttons::NONE);
    let mut plan: Option<PiecePlan> = None;
    let mut after_lock = std::collections::VecDeque::new();
    let mut pieces = 0u32;
    let mut lag_run = 0u32;
    let end = loop {
        if let Some(cap) = config.max_frames
            && nes.frame() >= cap
        {
            break GameEnd::FrameCap;
        }
        let buttons = if nes.game_mode() != GameMode::Play {
            menus.buttons(&nes, prev)
        } else {
            next_play_buttons(
                &nes,
                config,
                player,
                &mut ws,
                Pad {
                    plan: &mut plan,
                    after_lock: &mut after_lock,
                    micros: &mut piece_micros,
                },
            )
        };
        let phase = match console.run(buttons, &nes) {
            Ok(phase) => phase,
            Err(why) => break GameEnd::Stopped(why),
        };
        // Told the console's phase, the engine evaluates no other: a copy left untold counts
        // the phases in which the frame crashes.
        let counts = match phase {
            Some(_) if crash_check_applies(&nes) => {
                let mut untold = nes.clone();
                untold.set_cpu_phase(None);
                untold.step(buttons);
                untold.phase_counts()
            }
            _ => None,
        };
        nes.set_cpu_phase(phase);
        let events = nes.step(buttons);
        // A phase told for a frame that did not use it (no heavy frame) must not reach the
        // player's copies, which look at every phase.
        nes.set_cpu_phase(None);
        if events.has(Events::SPAWN)
            && let Some(dealer) = dealer.as_mut()
        {
            nes.raw_mut().next_piece = playfield_nes::tables::SPAWN_TABLE[dealer.deal()];
        }
        input.push(buttons);
        prev = buttons;
        if let Err(why) = console.check(&nes) {
            break GameEnd::Stopped(why);
        }
        if let Some(why) = nes.unsupported() {
            break GameEnd::Unsupported(why);
        }
        if phase.is_some() {
            crash_risk.observe_counts(nes.frame(), counts);
        } else {
            crash_risk.observe(&nes);
        }
        if let Some(crash) = nes.crash() {
            break GameEnd::Crash(crash);
        }
        lag_run = if events.lagged() { lag_run + 1 } else { 0 };
        if lag_run >= FROZEN_AFTER_LAG_FRAMES {
            break GameEnd::Frozen {
                since: nes.frame() + 1 - u64::from(lag_run),
            };
        }
        if events.has(Events::TOP_OUT) {
            break GameEnd::TopOut;
        }
        if events.has(Events::B_TYPE_GOAL) {
            break GameEnd::BTypeComplete;
        }
        if let Some(p) = plan.as_mut()
            && nes.play_state() != PlayState::Active
        {
            // The piece locked this frame: it must be where the plan said.
            if let Some(target) = p.target {
                let got = nes
                    .last_piece()
                    .map_or((0, 0, 0), |p| (p.x, p.y, p.orientation.id()));
                if got != target || !p.inputs.is_empty() {
                    break GameEnd::Mismatch(Mismatch {
                        frame: nes.frame(),
                        planned: target,
                        engine: got,
                    });
                }
            }
            pieces += 1;
            plan = None;
            decision_micros.push(std::mem::take(&mut piece_micros));
        }
        // The level only rises, by at most a few at a time: a drop is the wrap past 255.
        let level = nes.level();
        level_wrapped |= nes.game_mode() == GameMode::Play && level < last_level;
        last_level = level;
        if events.cleared() > 0 {
            clears[usize::from(events.cleared().min(4)) - 1] += 1;
            score_by_lines.push((nes.line_count(), nes.uncapped_score()));
        }
        if config.stop_at_max_score && nes.score() >= playfield_nes::rules::SCORE_CAP {
            break GameEnd::MaxedOut;
        }
        if events.has(Events::LINES_CLEARED)
            && let Some(cap) = config.max_lines
            && config.game_type == GameType::A
            && nes.line_count() >= cap
        {
            break GameEnd::LineCap;
        }
    };
    GameResult {
        score: nes.score(),
        lines: nes.line_count(),
        level: nes.level(),
        frames: nes.frame(),
        pieces,
        end,
        input,
        uncapped_score: nes.uncapped_score(),
        clears,
        score_by_lines,
        decision_micros,
        crash_risk,
        level_wrapped,
    }
}

/// The buttons for the next frame during play: plans a piece when it comes under control,
/// re-plans once the preview is known, and otherwise follows the plan (nothing between pieces).
fn next_play_buttons(
    nes: &Nes,
    config: &GameConfig,
    player: &Player,
    ws: &mut Workspace,
    pad: Pad<'_>,
) -> Buttons {
    next_play_buttons_gated(nes, config, player, ws, pad, || ())
}

/// What the player at the gamepad keeps from frame to frame.
struct Pad<'a> {
    /// The active piece's plan.
    plan: &'a mut Option<PiecePlan>,
    /// The buttons to press after the piece locks, before the next comes under control.
    after_lock: &'a mut std::collections::VecDeque<Buttons>,
    /// Time spent deciding on the current piece.
    micros: &'a mut u32,
}

/// [`next_play_buttons`], calling `gate` just before a search and holding what it returns until
/// the search ends.
fn next_play_buttons_gated<G>(
    nes: &Nes,
    config: &GameConfig,
    player: &Player,
    ws: &mut Workspace,
    pad: Pad<'_>,
    gate: impl FnOnce() -> G,
) -> Buttons {
    let Pad {
        plan,
        after_lock,
        micros,
    } = pad;
    // The next frame runs the player's update (fallTimer, shift, rotate, drop) only when the
    // main loop is back at gameModeState 2 with an active piece. Between pieces the player
    // presses nothing, but for the Select presses that keep a clear's frames clear of a crash.
    if !nes.controllable() {
        return after_lock.pop_front().unwrap_or(Buttons::NONE);
    }
    let Some(piece) = nes.piece_state() else {
        return Buttons::NONE;
    };
    let situation = Situation::of(nes, config);
    let reaction = player.input.reaction;
    let waiting = (piece.autorepeat_y as i8) < OPENING_DELAY_PLAN_AT;
    // The presses after the lock belong to the piece's latest decision, which sets them (a piece
    // can lock before its informed re-plan, so the first decision's presses must last until the
    // lock); a new piece starts with none.
    if plan.is_none() {
        after_lock.clear();
    }
    let p = plan.get_or_insert(PiecePlan {
        frame: 0,
        inputs: Default::default(),
        target: None,
        informed: false,
        planned: false,
    });
    let replan = if p.planned {
        !p.informed && p.frame >= reaction
    } else {
        !waiting
    };
    if replan {
        let _permit = gate();
        let mut situation = situation;
        if crash_check_applies(nes) {
            situation.unsafe_clears = unsafe_clears(nes);
        }
        let informed = p.frame >= reaction;
        let start = PieceState::from_rule(piece, nes.held_buttons().bits(), p.frame);
        let next = if informed { nes.next_piece() } else { None };
        let clock = std::time::Instant::now();
        let decision = player
            .decide(ws, &nes.board(), start, situation, next)
            .map(|d| {
                // A re-plan that puts the piece where the plan does keeps the plan's presses
                // (a soft drop under way, the Select presses after the lock) while they stay
                // clear of crashes: the search's own path has no soft drop.
                let target = (d.placement.x, d.placement.y, d.placement.orientation);
                if p.target == Some(target) && crash_check_applies(nes) {
                    let kept: Vec<Buttons> = p.inputs.iter().copied().collect();
                    let after: Vec<Buttons> = after_lock.iter().copied().collect();
                    if run_after_lock(nes, &kept, &after).is_some_and(|r| r.crash_free) {
                        return Decision { inputs: kept, ..d };
                    }
                }
                let (d, after) = clear_of_crashes(nes, player, ws, d, start, situation, next);
                *after_lock = after.into();
                d
            });
        *micros =
            micros.saturating_add(clock.elapsed().as_micros().min(u128::from(u32::MAX)) as u32);
        match decision {
            Some(d) => {
                p.inputs = d.inputs.into();
                p.target = Some((d.placement.x, d.placement.y, d.placement.orientation));
                p.informed = informed;
            }
            None => {
                p.inputs.clear();
                p.target = None;
                p.informed = true;
            }
        }
        p.planned = true;
    }
    p.frame += 1;
    p.inputs.pop_front().unwrap_or(Buttons::NONE)
}

/// Lag frames in a row after which a game is stopped as frozen ([`GameEnd::Frozen`]): five
/// minutes. A frame that adds the points lags one or two frames where its NMIs leave the score
/// loop's counter alone; where they rewrite it the lag has been seen to last 178 and 574 frames
/// and then end, and to go on for 8,773 frames, to the end of the movie (the same on the ROM in
/// tetanes).
pub const FROZEN_AFTER_LAG_FRAMES: u32 = 18_000;

/// The clears (bit `n` for `n` rows) that would freeze or crash the game if a piece locked
/// them now, however the player plays them of the ways [`CLEAR_PLAYS`] lists
impl Situation {
    /// The situation of the piece in play in `nes`, a game of `config` (no clear known unsafe
    /// yet: the decision looks that up where the lag levels make it matter).
    #[must_use]
    pub fn of(nes: &Nes, config: &GameConfig) -> Situation {
        Situation {
            level: nes.level(),
            lines: nes.line_count(),
            game_type: nes.game_type(),
            double_speed_level: config.double_speed_level,
            line_cap: config.max_lines,
            unsafe_clears: 0,
            score_maxed: config.survive_at_max_score
                && nes.score() >= playfield_nes::rules::SCORE_CAP,
        }
    }
}

/// ([`Nes::clear_outcome`]): the player builds for the others.
fn unsafe_clears(nes: &Nes) -> u8 {
    (1..=4u8)
        .filter(|&k| {
            CLEAR_PLAYS
                .iter()
                .all(|&how| nes.clear_outcome(k, how).is_some_and(|o| !o.safe()))
        })
        .fold(0, |mask, k| mask | 1 << k)
}

/// The ways of playing a clear the player can choose between ([`clear_of_crashes`] finds the
/// presses): the preview shown or hidden, and the push-down points a soft drop over the last
/// rows of the fall gives ([`push_down_variants`]; 1 adds no points, as 0).
const CLEAR_PLAYS: [ClearPlay; 8] = {
    let mut plays = [ClearPlay {
        preview_hidden: false,
        push_down_points: 0,
    }; 8];
    let mut i = 0;
    while i < 8 {
        plays[i].preview_hidden = i % 2 == 1;
        plays[i].push_down_points = [0, 2, 3, 4][i / 2];
        i += 1;
    }
    plays
};

/// Candidates from the player's ranking checked for crashes before the best is kept anyway.
const CRASH_CHECK_CANDIDATES: usize = 24;

/// Frames after the last planned input within which the next piece comes under control (the
/// lock, the line-clear animation, the points and the spawn take well under 60 frames).
const CRASH_CHECK_FRAMES: u32 = 120;

/// Whether the player checks its placements for crashes in `nes`'s state: the engine models lag
/// and crashes, and the level is one where a frame's work can outlast the frame. Below
/// [`LAG_FROM_LEVEL`] no frame can lag or crash, so the check is skipped and the decisions and
/// their time are as without it.
fn crash_check_applies(nes: &Nes) -> bool {
    nes.lag_modelled() && nes.level() >= LAG_FROM_LEVEL
}

/// The decision the player keeps in view of the crash, and what it presses after the lock:
/// `best` when the frames it leads to (its inputs through the lock, then nothing through the
/// line clear and its points until the next piece is under control) crash in no CPU phase
/// (a placement that crashes on any console counts as a loss). Otherwise, in this order, the
/// first whose frames crash in no phase: `best` with the preview hidden by Select for the frame
/// that adds the points (Select again right after it shows it before the next piece comes, so
/// no information is lost; the hidden box takes the preview's cycles out of that frame), then
/// `best` soft-dropped over the last rows of its fall (the push-down points change that frame's
/// work: [`push_down_variants`]), plain and with the preview hidden, then the best-ranked other
/// placements the same ways; `best` when none of the first [`CRASH_CHECK_CANDIDATES`] is clear.
/// A candidate that tops out is passed over. Checked with the engine itself, so the cycles are
/// the ROM's: the clear type, push-down points, preview, digit carries and frame counter all
/// count as they do in the game.
fn clear_of_crashes(
    nes: &Nes,
    player: &Player,
    ws: &mut Workspace,
    best: Decision,
    start: PieceState,
    situation: Situation,
    next: Option<playfield_nes::Piece>,
) -> (Decision, Vec<Buttons>) {
    if !crash_check_applies(nes) {
        return (best, Vec::new());
    }
    let Some(heavy) = run_after_lock(nes, &best.inputs, &[]) else {
        return (best, Vec::new());
    };
    if heavy.crash_free {
        return (best, Vec::new());
    }
    if let Some(clear) = clear_variant(nes, &best, &heavy) {
        return clear;
    }
    // Partial: pauses are not tried (at these levels the piece falls a row a frame, so it cannot
    // lock later than its fall).
    let ranked = player.rank(ws, &nes.board(), start, situation, next);
    for r in ranked.into_iter().skip(1).take(CRASH_CHECK_CANDIDATES) {
        let d = r.decision;
        let Some(run) = run_after_lock(nes, &d.inputs, &[]) else {
            continue;
        };
        if run.crash_free {
            return (d, Vec::new());
        }
        if let Some(clear) = clear_variant(nes, &d, &run) {
            return clear;
        }
    }
    (best, Vec::new())
}

/// `d` played another way that crashes in no phase and locks the piece where `d` does (`plain`:
/// how its own inputs run): the preview hidden for the frame that adds the points, then soft
/// drop over the last rows of the fall, plain and with the preview hidden. The lock, not the
/// board after the clear, is compared, so a placement whose own frames freeze (no next piece
/// comes) can be rescued by a soft drop too.
fn clear_variant(nes: &Nes, d: &Decision, plain: &LockRun) -> Option<(Decision, Vec<Buttons>)> {
    if let Some(after) = hidden_preview_clear(nes, &d.inputs) {
        return Some((d.clone(), after));
    }
    for inputs in push_down_variants(&d.inputs) {
        let Some(run) = run_after_lock(nes, &inputs, &[]) else {
            continue;
        };
        if run.locked.is_none() || run.locked != plain.locked {
            continue;
        }
        let soft_dropped = Decision {
            inputs,
            ..d.clone()
        };
        if run.crash_free {
            return Some((soft_dropped, Vec::new()));
        }
        if let Some(after) = hidden_preview_clear(nes, &soft_dropped.inputs) {
            return Some((soft_dropped, after));
        }
    }
    None
}

/// The most frames at the end of a fall tried with Down held (the soft drop counts a row of
/// `holdDownPoints` every second frame after its first two: 12 frames give 5).
const PUSH_DOWN_FRAMES: usize = 12;

/// `inputs` with Down held over their last `k` frames, for `k` from 1 to [`PUSH_DOWN_FRAMES`],
/// within the frames at the end that press nothing (Down with Left or Right is no soft drop, and
/// a rotation stays where it was). Each changes the push-down points (`holdDownPoints`) the
/// frame after the lock adds, so its work and where the next NMI lands.
fn push_down_variants(inputs: &[Buttons]) -> impl Iterator<Item = Vec<Buttons>> + '_ {
    let idle = inputs
        .iter()
        .rev()
        .take_while(|&&b| b == Buttons::NONE)
        .count();
    (1..=idle.min(PUSH_DOWN_FRAMES)).map(move |k| {
        let mut v = inputs.to_vec();
        let n = v.len();
        v[n - k..].fill(Buttons::DOWN);
        v
    })
}

/// The presses after the lock that hide the preview for the frame that adds the points and show
/// it again before the next piece comes, such that no frame crashes in any phase; `None` when
/// no such timing is found.
fn hidden_preview_clear(nes: &Nes, inputs: &[Buttons]) -> Option<Vec<Buttons>> {
    let heavy = run_after_lock(nes, inputs, &[])?.heavy?;
    // Select on the first frame after the lock hides it; the second Select must come in a frame
    // that runs the game's routines after the heavy one (the frames right after it may lag).
    for show in heavy + 1..heavy + 4 {
        let mut after = vec![Buttons::NONE; show + 1];
        after[0] = Buttons::SELECT;
        after[show] = Buttons::SELECT;
        let run = run_after_lock(nes, inputs, &after)?;
        if run.crash_free && run.preview_as_before {
            return Some(after);
        }
    }
    None
}

/// What playing a piece's inputs and the presses after its lock leads to ([`run_after_lock`]).
struct LockRun {
    /// No frame crashes in any CPU phase.
    crash_free: bool,
    /// The frame that adds the points (the last heavy frame whose phases were evaluated), in
    /// frames from the one after the lock, counted from 0.
    heavy: Option<usize>,
    /// When the next piece came under control the preview was shown or hidden as before.
    preview_as_before: bool,
    /// Where the piece locked (`tetriminoX`, `tetriminoY`, `currentPiece`), `None` where it did
    /// not within the run.
    locked: Option<(u8, u8, u8)>,
}

/// Plays `inputs` from `nes`, then `after` from the frame after the lock, then nothing until
/// the next piece is under control, following the phases that do not crash; `None` when the game
/// ends first (a top-out). A next piece that does not come within [`CRASH_CHECK_FRAMES`] (the
/// game froze) counts as a crash.
fn run_after_lock(nes: &Nes, inputs: &[Buttons], after: &[Buttons]) -> Option<LockRun> {
    let mut n = nes.clone();
    n.set_phase_choice(PhaseChoice::Surviving);
    n.set_cpu_phase(None);
    let preview = n.preview_shown();
    let mut crash_free = true;
    let mut heavy = None;
    let mut lock: Option<usize> = None;
    let mut locked = None;
    let mut after = after.iter().copied();
    for i in 0..inputs.len() + CRASH_CHECK_FRAMES as usize {
        let buttons = match (inputs.get(i), lock) {
            (Some(&b), None) => b,
            (_, Some(_)) => after.next().unwrap_or(Buttons::NONE),
            (None, None) => Buttons::NONE,
        };
        let events = n.step(buttons);
        if events.has(Events::TOP_OUT) || n.unsupported().is_some() {
            return None;
        }
        if n.crash().is_some() {
            break;
        }
        if let Some(counts) = n.phase_counts() {
            crash_free &= counts.crash == 0;
            heavy = lock.map(|l| i - l - 1);
        }
        if lock.is_some() && n.controllable() {
            return Some(LockRun {
                crash_free,
                heavy,
                preview_as_before: n.preview_shown() == preview,
                locked,
            });
        }
        if lock.is_none() && n.play_state() != PlayState::Active {
            lock = Some(i);
            locked = n.last_piece().map(|p| (p.x, p.y, p.orientation.id()));
        }
    }
    // The game crashed in every phase, or no next piece came: the game froze (the score loop's
    // frame lags for good), as bad as a crash.
    Some(LockRun {
        crash_free: false,
        heavy,
        preview_as_before: false,
        locked,
    })
}

/// Whether playing `inputs` from `nes`, then no buttons until the next piece is under control,
/// passes no frame that crashes in any CPU phase (a game that ends first passes none).
#[must_use]
pub fn crash_free(nes: &Nes, inputs: &[Buttons]) -> bool {
    run_after_lock(nes, inputs, &[]).is_none_or(|r| r.crash_free)
}

/// A player at the gamepad one frame at a time: the menus, then the pieces, exactly as
/// [`play_game`] plays them, for callers that step the engine themselves (a live view that shows
/// every frame, pauses, or changes speed).
pub struct Pilot {
    config: GameConfig,
    decision_micros: u32,
    player: Player,
    ws: Workspace,
    menus: MenuDriver,
    plan: Option<PiecePlan>,
    after_lock: std::collections::VecDeque<Buttons>,
    prev: Buttons,
    crash_risk: CrashRisk,
    /// The last frame whose crash risk was counted (a frame is counted once however often the
    /// pilot is asked about it).
    risk_seen: Option<u64>,
}

impl std::fmt::Debug for Pilot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pilot")
            .field("player", &self.player.name)
            .finish_non_exhaustive()
    }
}

impl Pilot {
    /// A pilot for a game from power-on with `config`'s menu choices.
    #[must_use]
    pub fn new(config: &GameConfig, player: Player) -> Self {
        Pilot {
            config: *config,
            decision_micros: 0,
            player,
            ws: Workspace::new(),
            menus: config.menu_driver(),
            plan: None,
            after_lock: std::collections::VecDeque::new(),
            prev: Buttons::NONE,
            crash_risk: CrashRisk::default(),
            risk_seen: None,
        }
    }

    /// Sets `nes` (the engine this pilot plays) to go on past a frame that crashes on some
    /// consoles as [`play_game`] does: as the consoles where the game survives do
    /// ([`PhaseChoice::Surviving`]). The pilot counts such frames ([`Pilot::crash_risk`]).
    pub fn prepare(nes: &mut Nes) {
        nes.set_phase_choice(PhaseChoice::Surviving);
    }

    /// The frames so far that crash on some consoles but not all.
    #[must_use]
    pub fn crash_risk(&self) -> CrashRisk {
        self.crash_risk
    }

    /// The buttons for the next frame of `nes` (the state after the previous frame this pilot
    /// chose). Plans a piece when it comes under control, which may take a search.
    pub fn buttons(&mut self, nes: &Nes) -> Buttons {
        self.buttons_gated(nes, || ())
    }

    /// [`Pilot::buttons`], calling `gate` just before a search and holding what it returns while
    /// the search runs: a server playing many games passes a semaphore's permit, so only as many
    /// searches run at once as there are cores and the other games keep their frames flowing.
    pub fn buttons_gated<G>(&mut self, nes: &Nes, gate: impl FnOnce() -> G) -> Buttons {
        if self.risk_seen != Some(nes.frame()) {
            self.risk_seen = Some(nes.frame());
            self.crash_risk.observe(nes);
        }
        if self.plan.is_some() && nes.play_state() != PlayState::Active {
            // The planned piece locked on the last frame.
            self.plan = None;
        }
        let buttons = if nes.game_mode() != GameMode::Play {
            self.menus.buttons(nes, self.prev)
        } else {
            next_play_buttons_gated(
                nes,
                &self.config,
                &self.player,
                &mut self.ws,
                Pad {
                    plan: &mut self.plan,
                    after_lock: &mut self.after_lock,
                    micros: &mut self.decision_micros,
                },
                gate,
            )
        };
        self.prev = buttons;
        buttons
    }

    /// Hands the gamepad to `player`: the piece in play keeps its plan, the next is its.
    pub fn set_player(&mut self, player: Player) {
        self.player = player;
    }

    /// Where the current plan locks the piece: (`tetriminoX`, `tetriminoY`, orientation id).
    #[must_use]
    pub fn target(&self) -> Option<(u8, u8, u8)> {
        self.plan.as_ref().and_then(|p| p.target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_ends_serialize_as_their_messages() {
        let json = |end: &GameEnd| serde_json::to_string(end).unwrap();
        assert_eq!(json(&GameEnd::TopOut), r#""top_out""#);
        assert_eq!(
            json(&GameEnd::Unsupported(Unsupported::StartHeight)),
            r#"{"unsupported":"startHeight above 5 reads past its table"}"#
        );
        let mismatch = Mismatch {
            frame: 700,
            planned: (5, 18, 2),
            engine: (5, 17, 2),
        };
        assert_eq!(
            json(&GameEnd::Mismatch(mismatch)),
            r#"{"mismatch":"frame 700: planned lock (x, y, orientation) = (5, 18, 2), engine (5, 17, 2)"}"#
        );
        assert_eq!(
            json(&GameEnd::Stopped("ROM".into())),
            r#"{"stopped":"ROM"}"#
        );
    }

    #[test]
    fn crash_risks_add_up_over_games_and_say_so() {
        let mut total = CrashRisk::default();
        assert_eq!(total.to_string(), "no crash risk");
        let one = CrashRisk {
            frames: 1,
            most_phases: 32,
            phases: 48,
            first_frame: Some(130_400),
        };
        let other = CrashRisk {
            frames: 3,
            most_phases: 8,
            phases: 48,
            first_frame: Some(90_000),
        };
        total.add(&one);
        total.add(&CrashRisk::default());
        total.add(&other);
        assert_eq!(
            total,
            CrashRisk {
                frames: 4,
                most_phases: 32,
                phases: 48,
                first_frame: Some(90_000),
            }
        );
        assert_eq!(
            one.to_string(),
            "crash risk: 1 frame crashing in some phases (at most 32 of 48)"
        );
        // A game at low levels plays without the ROM's timing: nothing to observe.
        let mut seen = CrashRisk::default();
        seen.observe(&Nes::power_on());
        assert_eq!(seen, CrashRisk::default());
    }

    #[test]
    fn caps_and_modifiers_are_checked_with_the_menus() {
        let mut config = GameConfig::a_type(18, 0);
        assert_eq!(config.validate(), Ok(()));
        config.max_lines = Some(0);
        assert_eq!(config.validate(), Err(GameConfigError::LineCap));
        config.max_lines = Some(430);
        config.double_speed_level = Some(17);
        assert_eq!(
            config.validate().unwrap_err().to_string(),
            "double-speed level 17 is below the start level 18: it must be at least the start level"
        );
        config.double_speed_level = Some(18);
        assert_eq!(config.validate(), Ok(()));
        config.level = 20;
        assert_eq!(config.validate(), Err(GameConfigError::Level(20)));
    }
}
