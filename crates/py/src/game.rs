//! The environments' games in Rust, independent of Python: a NES game stepped one placement or
//! one frame at a time, and Fahey's Standard Tetris stepped one placement at a time. Each writes
//! its observation into caller-provided slices, so the single environments and the vector
//! environment (which writes row `i` of batched numpy arrays) share one code path.

use std::sync::Arc;

use playfield_ai::nes::game::{LevelMenuWaits, split_mix};
use playfield_ai::nes::{GameConfig, InputModel, PieceState, SweepPlacement, Sweeper};
use playfield_ai::standard::moves::placements_on;
use playfield_ai::standard::{MoveModel, Prepared};
use playfield_nes::tables::{ORIENTATION_HIDDEN, TILE_EMPTY};
use playfield_nes::{Buttons, Events, GameMode, GameType, Nes, Piece, PlayState};
use playfield_standard::{EndRule, Game as StandardGame, Iteration, PieceSource};

use crate::error::GameError;

/// Board rows and columns of NES Tetris.
pub const ROWS: usize = 20;
/// Board columns.
pub const COLS: usize = 10;
/// Cells of the NES board observation.
pub const BOARD_CELLS: usize = ROWS * COLS;
/// Orientation ids of NES Tetris.
pub const ORIENTATIONS: usize = 19;
/// Placement actions: (orientation × 20 + y) × 10 + x.
pub const NES_ACTIONS: usize = ORIENTATIONS * ROWS * COLS;
/// Fields of the NES state vector (names in `playfield.envs.NES_STATE_FIELDS`).
pub const NES_STATE_LEN: usize = 14;
/// `piece`/`next` value when there is no piece or it is hidden.
pub const NO_PIECE: i32 = 7;
/// Frames a placement step may take from the lock to the next spawn before the game is declared
/// stuck (a line clear plus entry delay takes under 60).
const MAX_FRAMES_BETWEEN_PIECES: u32 = 10_000;

/// What the reward counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// Points scored (the game's own score delta).
    Score,
    /// Lines cleared.
    Lines,
    /// The points of line clears only (the score without push-down points).
    LinePoints,
}

/// Points of clearing 0-4 lines at level 0 (`pointsTable`); the game multiplies them by the
/// level plus one, the level after the clear's level-up.
const LINE_POINTS: [f64; 5] = [0.0, 40.0, 100.0, 300.0, 1200.0];

impl Reward {
    /// From the option's name.
    pub fn parse(name: &str) -> Result<Reward, GameError> {
        match name {
            "score" => Ok(Reward::Score),
            "lines" => Ok(Reward::Lines),
            "score_no_pushdown" => Ok(Reward::LinePoints),
            _ => Err(GameError::UnknownReward(name.to_owned())),
        }
    }
}

/// A NES environment's settings (validated on the Python side's options).
#[derive(Clone, Debug)]
pub struct NesSettings {
    /// The game to start (level, type, height, music, caps); its seed is set per episode.
    pub config: GameConfig,
    /// The input model placements are searched under.
    pub input: InputModel,
    /// What the reward counts.
    pub reward: Reward,
    /// Frame environment: whether Start and Select reach the game (pause, the reset combo).
    pub start_select: bool,
    /// The engine at the level menu and the frames to get there (they do not depend on the
    /// seed), and the same along the menu's wait: every reset starts from the nearest instead
    /// of powering on again.
    pub level_menu: Arc<LevelMenuWaits>,
    /// The user's ROM, whose program the engine's lag model runs from level 100; `None`: lag
    /// and crashes are not modelled.
    pub rom: Option<crate::rom::GivenRom>,
}

/// How a step ended.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepOutcome {
    /// The reward.
    pub reward: f64,
    /// The game is over (top-out, B-type complete, or the engine stopped).
    pub terminated: bool,
    /// A cap of the settings stopped the game (line cap, frame cap).
    pub truncated: bool,
}

/// The level-menu state for `config` (see [`NesSettings::level_menu`]).
pub fn level_menu(config: &GameConfig) -> Result<Arc<LevelMenuWaits>, GameError> {
    LevelMenuWaits::new(config)
        .map(Arc::new)
        .ok_or(GameError::NoLevelMenu)
}

/// The next episode's seed after `seed` (the environment's own chain, so an environment and a
/// vector environment started from the same seed play the same episodes).
#[must_use]
pub fn next_episode_seed(seed: u64) -> u64 {
    // Kept below 2^63 so that a seed is a non-negative int64 wherever it goes (numpy, torch).
    split_mix(seed ^ 0x5EED) >> 1
}

/// Episode seeds are below this bound (non-negative int64 values).
pub const SEED_BOUND: u64 = 1 << 63;

/// The episode seed of sub-environment `index` of a vector environment reset with `seed`.
#[must_use]
pub fn vector_seed(seed: u64, index: usize) -> u64 {
    seed.wrapping_add(index as u64) % SEED_BOUND
}

/// Fills `board` (20×10, row-major) with 1 where the playfield has a block.
pub fn write_board(nes: &Nes, board: &mut [u8]) {
    for (out, &tile) in board.iter_mut().zip(&nes.playfield_page()[..BOARD_CELLS]) {
        *out = u8::from(tile != TILE_EMPTY);
    }
}

fn piece_type(piece: Option<Piece>) -> i32 {
    piece.map_or(NO_PIECE, |piece| piece.index() as i32)
}

/// Fills the state vector (`NES_STATE_LEN` fields, see `NES_STATE_FIELDS`; `state` has that
/// length).
pub fn write_state(nes: &Nes, next_hidden: bool, state: &mut [i32]) {
    write_state_with(nes, next_hidden, nes.line_count(), nes.score(), state);
}

/// [`write_state`] given the lines and the score (`Nes::line_count`, `Nes::score`), which a
/// caller that keeps them need not decode every frame.
pub fn write_state_with(nes: &Nes, next_hidden: bool, lines: u32, score: u32, state: &mut [i32]) {
    // Built whole, then copied: one length check instead of one per field.
    let mode = nes.game_mode();
    let in_play = mode == GameMode::Play;
    // Outside play, and while hidden, the piece reads as the hidden orientation (19).
    let orientation = nes.last_piece().filter(|_| in_play).map(|p| p.orientation);
    let (x, y) = nes.piece_position();
    let fields: [i32; NES_STATE_LEN] = [
        piece_type(orientation.map(|o| o.piece())),
        orientation.map_or(i32::from(ORIENTATION_HIDDEN), |o| i32::from(o.id())),
        i32::from(x),
        i32::from(y),
        if next_hidden || !in_play {
            NO_PIECE
        } else {
            piece_type(nes.next_piece())
        },
        i32::from(nes.level()),
        lines as i32,
        score as i32,
        i32::from(nes.play_state().to_raw()),
        i32::from(nes.fall_timer()),
        i32::from(nes.das_counter()),
        i32::from(nes.soft_drop_counter() as i8),
        i32::from(mode.to_raw()),
        i32::from(nes.controllable()),
    ];
    if let Some(out) = state.get_mut(..NES_STATE_LEN) {
        out.copy_from_slice(&fields);
    }
}

/// The score and the lines of a game, what a reward is counted from.
#[derive(Clone, Copy, Debug)]
struct Tally {
    score: u32,
    lines: u32,
}

impl Tally {
    fn of(nes: &Nes) -> Tally {
        Tally {
            score: nes.score(),
            lines: nes.line_count(),
        }
    }
}

fn reward_of(reward: Reward, before: Tally, after: &Nes) -> f64 {
    nes_reward(reward, before.score, before.lines, after)
}

/// The reward of a NES step that started with `score` and `lines`.
#[must_use]
pub fn nes_reward(reward: Reward, score: u32, lines: u32, after: &Nes) -> f64 {
    match reward {
        Reward::Score => f64::from(after.score()) - f64::from(score),
        Reward::Lines => f64::from(after.line_count()) - f64::from(lines),
        Reward::LinePoints => line_points(after.line_count().abs_diff(lines), after.level()),
    }
}

/// The points of clearing `cleared` lines (B-type counts its lines down: the caller passes the
/// difference), `level` being the level after the clear.
#[must_use]
pub fn line_points(cleared: u32, level: u8) -> f64 {
    LINE_POINTS.get(cleared as usize).copied().unwrap_or(0.0) * (f64::from(level) + 1.0)
}

/// A NES game from power-on: the engine and every frame's buttons (so it can be pickled by
/// replaying them, which is exact).
#[derive(Clone, Debug)]
pub struct Recorded {
    /// The engine.
    pub nes: Nes,
    /// The buttons of every frame since power-on.
    pub history: Vec<u8>,
}

impl Recorded {
    /// Steps one frame, recording its buttons.
    pub fn step(&mut self, buttons: Buttons) -> Events {
        self.history.push(buttons.bits());
        self.nes.step(buttons)
    }

    /// Powers on and goes through the menus with `config` until the first piece is under
    /// control, resuming from the level menu `settings` reached for the same game type/music
    /// (the state of its wait nearest the seed's), and gives the engine the settings' ROM.
    pub fn start(config: &GameConfig, settings: &NesSettings) -> Result<Recorded, GameError> {
        let (mut nes, input) = settings
            .level_menu
            .start_game(config)
            .ok_or(GameError::NoFirstPiece)?;
        crate::rom::give(settings.rom.as_ref(), &mut nes);
        Ok(Recorded {
            nes,
            history: input.iter().map(|b| b.bits()).collect(),
        })
    }

    /// Why the game is over, if it is (see [`game_over`]).
    fn over(&self, events: Events) -> bool {
        game_over(&self.nes, events)
    }

    /// Whether a cap of `config` stops the game (see [`capped`]).
    fn capped(&self, config: &GameConfig) -> bool {
        capped(&self.nes, config)
    }
}

/// Whether the game is over after a frame that raised `events`: top-out or B-type complete, the
/// engine stopped, the game crashed (the lag model, with the ROM), or play left (the reset
/// combo, the curtain ended).
#[must_use]
pub fn game_over(nes: &Nes, events: Events) -> bool {
    events.has(Events::TOP_OUT)
        || events.has(Events::B_TYPE_GOAL)
        || nes.unsupported().is_some()
        || events.has(Events::CRASH)
        || nes.game_mode() != GameMode::Play
}

/// Whether a cap of `config` (frames since power-on, lines of an A-type game) stops the game.
#[must_use]
pub fn capped(nes: &Nes, config: &GameConfig) -> bool {
    if let Some(cap) = config.max_frames
        && nes.frame() >= cap
    {
        return true;
    }
    if let Some(cap) = config.max_lines
        && config.game_type == GameType::A
        && nes.line_count() >= cap
    {
        return true;
    }
    false
}

/// The lowest `autorepeatY` of the opening delay at which the first piece is planned, as the
/// AI's games do: the piece cannot fall before, and a search through the whole delay would visit
/// millions of states.
const OPENING_DELAY_PLAN_AT: i8 = -2;

/// A NES game stepped one placement at a time.
#[derive(Debug)]
pub struct PlacementGame {
    /// Settings.
    pub settings: NesSettings,
    /// The game; `None` before the first reset.
    pub game: Option<Recorded>,
    /// The episode's seed.
    pub seed: u64,
    /// Whether the episode ended.
    pub done: bool,
    /// Frames the active piece has been under control (the input timeline's clock).
    piece_frame: u32,
    /// The search (the same placements as the AI's searcher, found a row of columns at a time;
    /// each one's buttons are rebuilt when asked for).
    searcher: Sweeper,
    placements: Vec<SweepPlacement>,
    /// For each action, the index in `placements` (or -1).
    action_index: Vec<i16>,
    /// The buttons of the placement being played (kept to save an allocation per step).
    inputs: Vec<u8>,
    /// Pieces placed this episode.
    pub pieces: u32,
}

/// The action of a placement.
#[must_use]
pub fn placement_action(p: &SweepPlacement) -> Option<usize> {
    let (x, y, o) = (
        usize::from(p.x),
        usize::from(p.y),
        usize::from(p.orientation),
    );
    (x < COLS && y < ROWS && o < ORIENTATIONS).then_some((o * ROWS + y) * COLS + x)
}

impl Clone for PlacementGame {
    /// The search buffers are not copied: the copy searches its active piece again.
    fn clone(&self) -> Self {
        let mut copy = PlacementGame {
            settings: self.settings.clone(),
            game: self.game.clone(),
            seed: self.seed,
            done: self.done,
            piece_frame: self.piece_frame,
            searcher: Sweeper::new(),
            placements: Vec::new(),
            action_index: vec![-1; NES_ACTIONS],
            inputs: Vec::new(),
            pieces: self.pieces,
        };
        copy.search();
        copy
    }
}

impl PlacementGame {
    /// A game with `settings`, not started.
    #[must_use]
    pub fn new(settings: NesSettings) -> Self {
        PlacementGame {
            settings,
            game: None,
            seed: 0,
            done: true,
            piece_frame: 0,
            searcher: Sweeper::new(),
            placements: Vec::new(),
            action_index: vec![-1; NES_ACTIONS],
            inputs: Vec::new(),
            pieces: 0,
        }
    }

    /// Starts an episode from power-on with `seed` (it picks the menu wait and so the pieces).
    pub fn reset(&mut self, seed: u64) -> Result<(), GameError> {
        let config = GameConfig {
            seed,
            ..self.settings.config
        };
        let mut game = Recorded::start(&config, &self.settings)?;
        self.seed = seed;
        self.piece_frame = 0;
        self.pieces = 0;
        while (game.nes.soft_drop_counter() as i8) < OPENING_DELAY_PLAN_AT
            && game.nes.controllable()
        {
            game.step(Buttons::NONE);
            self.piece_frame += 1;
        }
        self.game = Some(game);
        self.done = false;
        self.search();
        Ok(())
    }

    fn search(&mut self) {
        for p in &self.placements {
            if let Some(a) = placement_action(p) {
                self.action_index[a] = -1;
            }
        }
        self.placements.clear();
        let Some(game) = &self.game else { return };
        if self.done || !game.nes.controllable() {
            return;
        }
        let nes = &game.nes;
        let Some(start) = PieceState::from_nes(nes, self.piece_frame) else {
            return;
        };
        let found = self.searcher.search(
            nes.playfield_page(),
            start,
            nes.level(),
            &self.settings.input,
        );
        self.placements.extend_from_slice(found);
        for (i, p) in self.placements.iter().enumerate() {
            if let Some(a) = placement_action(p) {
                self.action_index[a] = i as i16;
            }
        }
    }

    /// Frames the active piece has been under control at the decision (the input timeline's
    /// clock, what a player's search starts from).
    #[must_use]
    pub fn decision_frame(&self) -> u32 {
        self.piece_frame
    }

    /// The placements of the active piece.
    #[must_use]
    pub fn placements(&self) -> &[SweepPlacement] {
        &self.placements
    }

    /// The buttons of each frame that play `placement`.
    #[must_use]
    pub fn inputs(&self, placement: &SweepPlacement) -> Vec<Buttons> {
        self.searcher.inputs(placement)
    }

    /// Appends the buttons of each frame that play `placement` to `out`.
    pub fn inputs_into(&self, placement: &SweepPlacement, out: &mut Vec<u8>) {
        self.searcher.inputs_into(placement, out);
    }

    /// The placement an action stands for, if the action is allowed now.
    #[must_use]
    pub fn placement_of(&self, action: i64) -> Option<SweepPlacement> {
        let i = *self.action_index.get(usize::try_from(action).ok()?)?;
        (i >= 0).then(|| self.placements[i as usize])
    }

    /// Checks an action before stepping.
    pub fn check_action(&self, action: i64) -> Result<SweepPlacement, GameError> {
        if self.game.is_none() {
            return Err(GameError::NotReset);
        }
        if self.done {
            return Err(GameError::EpisodeOver);
        }
        self.placement_of(action).ok_or_else(|| {
            if usize::try_from(action).is_ok_and(|a| a < NES_ACTIONS) {
                GameError::UnreachableNesPlacement { action }
            } else {
                GameError::OutsideActionSpace {
                    action,
                    size: NES_ACTIONS,
                }
            }
        })
    }

    /// Plays the placement of `action` (checked with [`Self::check_action`]) through the
    /// gamepad, then runs the game to the next piece under control (or its end).
    pub fn step(&mut self, action: i64) -> Result<StepOutcome, GameError> {
        let placement = self.check_action(action)?;
        let mut inputs = std::mem::take(&mut self.inputs);
        inputs.clear();
        self.searcher.inputs_into(&placement, &mut inputs);
        let settings = &self.settings;
        let Some(game) = self.game.as_mut() else {
            return Err(GameError::NotReset);
        };
        let before = Tally::of(&game.nes);
        let mut ended = false;
        for &b in &inputs {
            let events = game.step(Buttons::from_bits_retain(b));
            if game.over(events) {
                ended = true;
                break;
            }
        }
        if !ended {
            let (x, y) = game.nes.piece_position();
            let orientation = game
                .nes
                .last_piece()
                .map_or(ORIENTATION_HIDDEN, |p| p.orientation.id());
            let got = (x, y, orientation);
            let want = (placement.x, placement.y, placement.orientation);
            if game.nes.play_state() == PlayState::Active || got != want {
                return Err(GameError::PlannedLockMissed {
                    want,
                    got,
                    frame: game.nes.frame(),
                });
            }
        }
        self.pieces += 1;
        let mut outcome = StepOutcome::default();
        let mut frames = 0;
        while !ended {
            if game.capped(&settings.config) {
                outcome.truncated = true;
                break;
            }
            if game.nes.controllable() {
                break;
            }
            let events = game.step(Buttons::NONE);
            ended = game.over(events);
            frames += 1;
            if frames > MAX_FRAMES_BETWEEN_PIECES {
                // The game stopped bringing pieces (long games reach levels where the ROM's
                // own code goes astray): the episode ends there, as the game has.
                ended = true;
            }
        }
        outcome.reward = reward_of(settings.reward, before, &game.nes);
        self.inputs = inputs;
        self.piece_frame = 0;
        self.done = ended || outcome.truncated;
        self.search();
        if !self.done && self.placements.is_empty() {
            // The piece has nowhere to lock: it falls where gravity takes it and the game ends.
            if let Some(game) = self.game.as_mut() {
                for _ in 0..MAX_FRAMES_BETWEEN_PIECES {
                    let events = game.step(Buttons::NONE);
                    if game.over(events) {
                        break;
                    }
                }
                outcome.reward = reward_of(self.settings.reward, before, &game.nes);
            }
            self.done = true;
        }
        outcome.terminated = self.done && !outcome.truncated;
        Ok(outcome)
    }

    /// Writes the observation: board, state vector (the preview hidden when the input model's
    /// reaction time has not passed at the decision) and action mask.
    pub fn write_obs(&self, board: &mut [u8], state: &mut [i32], mask: &mut [i8]) {
        let Some(game) = &self.game else { return };
        write_board(&game.nes, board);
        let hidden = self.piece_frame < self.settings.input.reaction;
        write_state(&game.nes, hidden, state);
        mask.fill(0);
        for p in &self.placements {
            if let Some(a) = placement_action(p) {
                mask[a] = 1;
            }
        }
    }
}

/// A NES game stepped one frame at a time.
#[derive(Clone, Debug)]
pub struct FrameGame {
    /// Settings.
    pub settings: NesSettings,
    /// The game; `None` before the first reset.
    pub game: Option<Recorded>,
    /// The episode's seed.
    pub seed: u64,
    /// Whether the episode ended.
    pub done: bool,
}

impl FrameGame {
    /// A game with `settings`, not started.
    #[must_use]
    pub fn new(settings: NesSettings) -> Self {
        FrameGame {
            settings,
            game: None,
            seed: 0,
            done: true,
        }
    }

    /// Starts an episode at the first frame the first piece is under control.
    pub fn reset(&mut self, seed: u64) -> Result<(), GameError> {
        let config = GameConfig {
            seed,
            ..self.settings.config
        };
        self.game = Some(Recorded::start(&config, &self.settings)?);
        self.seed = seed;
        self.done = false;
        Ok(())
    }

    /// Checks a buttons action.
    pub fn check_action(&self, action: i64) -> Result<Buttons, GameError> {
        if self.game.is_none() {
            return Err(GameError::NotReset);
        }
        if self.done {
            return Err(GameError::EpisodeOver);
        }
        let byte = u8::try_from(action).map_err(|_| GameError::NotAButtonsByte { action })?;
        let mut buttons = Buttons::from_bits_retain(byte);
        if !self.settings.start_select {
            buttons.remove(Buttons::START | Buttons::SELECT);
        }
        Ok(buttons)
    }

    /// Steps one frame with `action`'s buttons.
    pub fn step(&mut self, action: i64) -> Result<StepOutcome, GameError> {
        let buttons = self.check_action(action)?;
        let settings = &self.settings;
        let Some(game) = self.game.as_mut() else {
            return Err(GameError::NotReset);
        };
        let (score, lines) = (game.nes.score(), game.nes.line_count());
        let events = game.step(buttons);
        let reward = nes_reward(settings.reward, score, lines, &game.nes);
        let terminated = game.over(events);
        let truncated = !terminated && game.capped(&settings.config);
        self.done = terminated || truncated;
        Ok(StepOutcome {
            reward,
            terminated,
            truncated,
        })
    }

    /// Writes the observation: board and state vector.
    pub fn write_obs(&self, board: &mut [u8], state: &mut [i32]) {
        let Some(game) = &self.game else { return };
        write_board(&game.nes, board);
        write_state(&game.nes, false, state);
    }
}

/// Orientations × columns slots of the Standard Tetris action space: action = orientation × 16 +
/// (x + 3), x being the piece origin's column.
pub const STANDARD_ACTIONS: usize = 4 * 16;
/// Offset added to the origin column in a Standard Tetris action.
const STANDARD_X_OFFSET: i32 = 3;
/// Fields of the Standard Tetris state vector: piece, next, level, lines, score, pieces.
pub const STANDARD_STATE_LEN: usize = 6;

/// The Standard Tetris action of (orientation, x).
#[must_use]
pub fn standard_action(orientation: u8, x: i32) -> Option<usize> {
    let column = x + STANDARD_X_OFFSET;
    (orientation < 4 && (0..16).contains(&column))
        .then(|| usize::from(orientation) * 16 + column as usize)
}

/// Standard Tetris settings.
#[derive(Clone, Copy, Debug)]
pub struct StandardSettings {
    /// Board rows (20 is Fahey's).
    pub height: usize,
    /// Initial level 1-10.
    pub level: u8,
    /// Move model.
    pub model: MoveModel,
    /// End rule.
    pub end_rule: EndRule,
    /// Reward.
    pub reward: Reward,
    /// Stop once this many lines are completed.
    pub max_lines: Option<u64>,
}

/// A Standard Tetris game stepped one placement at a time.
#[derive(Clone, Debug)]
pub struct StandardEnvGame {
    /// Settings.
    pub settings: StandardSettings,
    /// The game.
    pub game: Option<StandardGame>,
    /// The episode's seed.
    pub seed: u64,
    /// Whether the episode ended.
    pub done: bool,
    /// For each action, its placement when allowed now.
    mask: Vec<Option<playfield_ai::standard::Placement>>,
}

impl StandardEnvGame {
    /// A game with `settings`, not started.
    #[must_use]
    pub fn new(settings: StandardSettings) -> Self {
        StandardEnvGame {
            settings,
            game: None,
            seed: 0,
            done: true,
            mask: vec![None; STANDARD_ACTIONS],
        }
    }

    /// Starts an episode: random pieces from `seed`, up to the first spawn.
    pub fn reset(&mut self, seed: u64) -> Result<(), GameError> {
        let s = &self.settings;
        let game = StandardGame::new(s.height, s.level, PieceSource::random(seed))?
            .with_end_rule(s.end_rule);
        self.game = Some(game);
        self.seed = seed;
        self.done = false;
        self.advance(&mut StepOutcome::default());
        Ok(())
    }

    /// Runs iterations until a piece has spawned (or the game ends).
    fn advance(&mut self, outcome: &mut StepOutcome) {
        self.mask.fill(None);
        let Some(game) = self.game.as_mut() else {
            return;
        };
        loop {
            if let Some(cap) = self.settings.max_lines
                && game.lines() >= cap
            {
                outcome.truncated = true;
                break;
            }
            match game.iteration() {
                Iteration::Spawned(piece) => {
                    // Under the game's own end rule: with no-placement a piece whose spawn
                    // position is blocked still has the placements that fit at the top.
                    let prepared = Prepared::new(game.board());
                    let found = placements_on(
                        &prepared,
                        piece,
                        self.settings.model,
                        self.settings.end_rule,
                    );
                    for p in found.as_slice() {
                        if let Some(a) = standard_action(p.orientation, p.x) {
                            self.mask[a] = Some(*p);
                        }
                    }
                    if self.mask.iter().all(Option::is_none) {
                        // Nothing can be played: an empty mask with the episode going on would
                        // leave an agent no action to take.
                        outcome.terminated = true;
                    }
                    break;
                }
                Iteration::GameOver(_) | Iteration::Over => {
                    outcome.terminated = true;
                    break;
                }
                Iteration::Fell | Iteration::Landed(_) => {}
            }
        }
        self.done = outcome.terminated || outcome.truncated;
        if self.done {
            self.mask.fill(None);
        }
    }

    /// Checks an action.
    pub fn check_action(&self, action: i64) -> Result<(u8, i32), GameError> {
        if self.game.is_none() {
            return Err(GameError::NotReset);
        }
        if self.done {
            return Err(GameError::EpisodeOver);
        }
        let Some(slot) = usize::try_from(action)
            .ok()
            .filter(|&a| a < STANDARD_ACTIONS)
        else {
            return Err(GameError::OutsideActionSpace {
                action,
                size: STANDARD_ACTIONS,
            });
        };
        if self.mask[slot].is_none() {
            return Err(GameError::UnreachableStandardPlacement { action });
        }
        Ok(((slot / 16) as u8, (slot % 16) as i32 - STANDARD_X_OFFSET))
    }

    /// Plays the placement of `action` with the game's inputs, then runs to the next spawn.
    pub fn step(&mut self, action: i64) -> Result<StepOutcome, GameError> {
        self.check_action(action)?;
        let slot = usize::try_from(action).unwrap_or(0);
        let Some(plan) = self.mask[slot] else {
            return Err(GameError::UnreachableStandardPlacement { action });
        };
        let model = self.settings.model;
        let reward_kind = self.settings.reward;
        let Some(game) = self.game.as_mut() else {
            return Err(GameError::NotReset);
        };
        let piece = game.current().map(|c| c.kind);
        let (lines, score) = (game.lines(), game.score());
        playfield_ai::standard::player::execute(game, plan, model)
            .map_err(|source| GameError::StandardPlacementMissed { piece, source })?;
        let reward = match reward_kind {
            // Standard Tetris scores no push-down points: its score is its line points.
            Reward::Score | Reward::LinePoints => (game.score() - score) as f64,
            Reward::Lines => (game.lines() - lines) as f64,
        };
        let mut outcome = StepOutcome {
            reward,
            ..StepOutcome::default()
        };
        self.advance(&mut outcome);
        Ok(outcome)
    }

    /// Writes the observation: board (height × 10, row 0 at the top as on screen), state vector
    /// and action mask.
    pub fn write_obs(&self, board: &mut [u8], state: &mut [i32], mask: &mut [i8]) {
        let Some(game) = &self.game else { return };
        let b = game.board();
        let h = b.height();
        for row in 0..h {
            for col in 0..COLS {
                // Row 0 of the game is the bottom; the observation shows the top first.
                board[row * COLS + col] = u8::from(b.cell(col, h - 1 - row));
            }
        }
        let letter_index =
            |p: Option<playfield_standard::Piece>| p.map_or(NO_PIECE, |p| i32::from(p.index()) - 1);
        state[0] = letter_index(game.current().map(|c| c.kind));
        state[1] = letter_index(game.next());
        state[2] = i32::from(game.level());
        state[3] = game.lines().min(i32::MAX as u64) as i32;
        state[4] = game.score().min(i32::MAX as u64) as i32;
        state[5] = game.pieces().min(i32::MAX as u64) as i32;
        for (m, &y) in mask.iter_mut().zip(&self.mask) {
            *m = i8::from(y.is_some());
        }
    }
}

/// Afterstate slots of the NES placement environment: one per orientation id and column
/// (`orientation × 10 + x`), the deepest reachable placement of each (tucks and spins under an
/// overhang give way to the drop straight down), as grouped-action environments do.
pub const AFTERSTATE_SLOTS: usize = ORIENTATIONS * COLS;
/// Features of an afterstate (names in `playfield.envs.AFTERSTATE_FEATURES`): lines cleared,
/// lock height, Birken's well cells, holes, column and row transitions, then bumpiness and the
/// highest column.
pub const AFTERSTATE_FEATURES: usize = 8;

/// The features of the board `page` once `placement` locks (see [`AFTERSTATE_FEATURES`]).
#[must_use]
pub fn afterstate_features(
    page: &[u8; 256],
    x: u8,
    y: u8,
    orientation: u8,
) -> [f32; AFTERSTATE_FEATURES] {
    use playfield_ai::nes::eval::{board_features, lock_height};
    use playfield_ai::nes::field::Field;
    let mut field = Field::from_page(page);
    let lines = field.lock(orientation, x as i8, y as i8).unwrap_or(0);
    let mut after = [TILE_EMPTY; 256];
    for (row, bits) in field.rows.iter().enumerate() {
        for col in 0..COLS {
            if bits >> col & 1 != 0 {
                after[row * COLS + col] = 0x7B;
            }
        }
    }
    let f = board_features(&after);
    let heights = field.heights();
    let bumpiness: u32 = heights
        .windows(2)
        .map(|w| u32::from(w[0].abs_diff(w[1])))
        .sum();
    let highest = heights.iter().copied().max().unwrap_or(0);
    [
        f32::from(lines),
        lock_height(y, orientation) as f32,
        f.well_cells as f32,
        f.column_holes as f32,
        f.column_transitions as f32,
        f.row_transitions as f32,
        bumpiness as f32,
        f32::from(highest),
    ]
}

impl PlacementGame {
    /// Writes each afterstate slot's features (`AFTERSTATE_SLOTS × AFTERSTATE_FEATURES`, zero
    /// for an empty slot) and its action in the placement action space (-1 when empty).
    pub fn write_afterstates(&self, features: &mut [f32], actions: &mut [i64]) {
        features.fill(0.0);
        actions.fill(-1);
        let Some(game) = &self.game else { return };
        let mut deepest = [-1i16; AFTERSTATE_SLOTS];
        for (i, p) in self.placements.iter().enumerate() {
            let slot = usize::from(p.orientation) * COLS + usize::from(p.x);
            if slot >= AFTERSTATE_SLOTS || usize::from(p.x) >= COLS {
                continue;
            }
            let better = match usize::try_from(deepest[slot]) {
                Ok(j) => p.y > self.placements[j].y,
                Err(_) => true,
            };
            if better {
                deepest[slot] = i as i16;
            }
        }
        let page = game.nes.playfield_page();
        for (slot, &i) in deepest.iter().enumerate() {
            let Ok(i) = usize::try_from(i) else { continue };
            let p = &self.placements[i];
            let Some(action) = placement_action(p) else {
                continue;
            };
            let row = afterstate_features(page, p.x, p.y, p.orientation);
            if let Some(out) =
                features.get_mut(slot * AFTERSTATE_FEATURES..(slot + 1) * AFTERSTATE_FEATURES)
            {
                out.copy_from_slice(&row);
            }
            if let Some(a) = actions.get_mut(slot) {
                *a = action as i64;
            }
        }
    }
}
