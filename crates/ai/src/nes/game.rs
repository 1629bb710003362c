//! Whole games from power-on: the menus, then the player piece by piece, through the gamepad
//! only (nothing is written into game memory).

use playfield_nes::{Buttons, Events, Nes, game_mode, play_state};
use serde::Serialize;
use thiserror::Error;

use super::player::{Player, Situation, Workspace};
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
}

/// What game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameConfig {
    /// 0 = A-type, 1 = B-type.
    pub game_type: u8,
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
}

impl GameConfig {
    /// An A-type game at `level` with music off.
    #[must_use]
    pub fn a_type(level: u8, seed: u64) -> Self {
        GameConfig {
            game_type: 0,
            level,
            height: 0,
            music: 3,
            seed,
            max_lines: None,
            max_frames: None,
        }
    }

    /// Checks the settings the menus can reach.
    ///
    /// # Errors
    /// When a level, height or music is out of the menus' range.
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
        Ok(())
    }

    /// Frames to wait on the level menu before pressing anything.
    #[must_use]
    pub fn menu_wait(&self) -> u64 {
        split_mix(self.seed) % MAX_MENU_WAIT
    }
}

/// SplitMix64: a seed's frames to wait, and per-game seeds from a run's seed.
#[must_use]
pub fn split_mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
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
    /// A B-type game cleared its 25 lines.
    BTypeComplete,
    /// The engine stopped at a state it does not model.
    Unsupported(String),
    /// The frame observer (e.g. the ROM in lockstep) stopped the game.
    Stopped(String),
    /// A planned move did not lock where the search said: a search/engine mismatch.
    Mismatch(String),
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Score (decimal).
    pub score: u32,
    /// `lines` as the game shows it (decimal; B-type counts down from 25).
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
}

/// Holds the menu targets and how far the menu driver got.
struct MenuDriver {
    config: GameConfig,
    waited: u64,
    wait: u64,
}

impl MenuDriver {
    /// A driver at power-on, before any menu.
    fn new(config: &GameConfig) -> Self {
        MenuDriver {
            config: *config,
            waited: 0,
            wait: config.menu_wait(),
        }
    }

    /// The buttons for the next frame, from the engine's state (closed loop). Buttons are pressed
    /// one frame and released the next, so every press is new.
    fn buttons(&mut self, nes: &Nes, prev: Buttons) -> Buttons {
        let c = &self.config;
        match nes.game_mode {
            game_mode::LEGAL | game_mode::TITLE => {
                if prev.is_empty() {
                    Buttons::START
                } else {
                    Buttons::NONE
                }
            }
            game_mode::GAME_TYPE_MENU => {
                if !prev.is_empty() {
                    return Buttons::NONE;
                }
                if nes.game_type != c.game_type {
                    if c.game_type == 1 {
                        Buttons::RIGHT
                    } else {
                        Buttons::LEFT
                    }
                } else if nes.music_type < c.music {
                    Buttons::DOWN
                } else if nes.music_type > c.music {
                    Buttons::UP
                } else {
                    Buttons::START
                }
            }
            game_mode::LEVEL_MENU => self.level_menu(nes, prev),
            _ => Buttons::NONE,
        }
    }

    fn level_menu(&mut self, nes: &Nes, prev: Buttons) -> Buttons {
        let c = &self.config;
        if self.waited < self.wait {
            self.waited += 1;
            return Buttons::NONE;
        }
        if prev == Buttons::A && c.level >= 10 {
            // A held, then Start: the level menu adds 10.
            return Buttons::A | Buttons::START;
        }
        if !prev.is_empty() {
            return Buttons::NONE;
        }
        let selecting_height = nes.original_y != 0;
        let level = nes.player1.start_level;
        let target = c.level % 10;
        if level != target {
            if selecting_height {
                return Buttons::A;
            }
            return if target >= level + 5 {
                Buttons::DOWN
            } else if target + 5 <= level {
                Buttons::UP
            } else if target > level {
                Buttons::RIGHT
            } else {
                Buttons::LEFT
            };
        }
        if c.game_type == 1 && nes.player1.start_height != c.height {
            if !selecting_height {
                return Buttons::A;
            }
            return if nes.player1.start_height < c.height {
                Buttons::RIGHT
            } else {
                Buttons::LEFT
            };
        }
        if c.level >= 10 {
            Buttons::A
        } else {
            Buttons::START
        }
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
    let mut nes = Nes::power_on();
    let mut menus = MenuDriver::new(config);
    let mut input = Vec::new();
    let mut prev = Buttons::NONE;
    // The menus take well under 5,000 frames even with the longest wait.
    for _ in 0..20_000 {
        if nes.game_mode == game_mode::PLAY
            && nes.game_mode_state == 2
            && nes.player1.play_state == play_state::ACTIVE
        {
            return Some((nes, input));
        }
        let buttons = if nes.game_mode == game_mode::PLAY {
            Buttons::NONE
        } else {
            menus.buttons(&nes, prev)
        };
        nes.step(buttons);
        input.push(buttons);
        prev = buttons;
        if nes.unsupported().is_some() {
            return None;
        }
    }
    None
}

/// Plays one game with `player`, calling `observe(buttons, &nes)` after every frame; an `Err`
/// from it stops the game (used to run the ROM in lockstep).
pub fn play_game(
    config: &GameConfig,
    player: &Player,
    mut observe: impl FnMut(Buttons, &Nes) -> Result<(), String>,
) -> GameResult {
    let mut nes = Nes::power_on();
    let mut ws = Workspace::new();
    let mut menus = MenuDriver::new(config);
    let mut input = Vec::new();
    let mut prev = Buttons::NONE;
    let mut plan: Option<PiecePlan> = None;
    let mut pieces = 0u32;
    let end = loop {
        if let Some(cap) = config.max_frames
            && nes.frame() >= cap
        {
            break GameEnd::FrameCap;
        }
        let buttons = if nes.game_mode != game_mode::PLAY {
            menus.buttons(&nes, prev)
        } else {
            next_play_buttons(&nes, player, &mut ws, &mut plan)
        };
        let events = nes.step(buttons);
        input.push(buttons);
        prev = buttons;
        if let Err(why) = observe(buttons, &nes) {
            break GameEnd::Stopped(why);
        }
        if let Some(why) = nes.unsupported() {
            break GameEnd::Unsupported(why.to_owned());
        }
        if events.has(Events::TOP_OUT) {
            break GameEnd::TopOut;
        }
        if events.has(Events::B_TYPE_GOAL) {
            break GameEnd::BTypeComplete;
        }
        if let Some(p) = plan.as_mut()
            && nes.player1.play_state != play_state::ACTIVE
        {
            // The piece locked this frame: it must be where the plan said.
            if let Some(target) = p.target {
                let got = (
                    nes.player1.tetrimino_x,
                    nes.player1.tetrimino_y,
                    nes.player1.current_piece,
                );
                if got != target || !p.inputs.is_empty() {
                    break GameEnd::Mismatch(format!(
                        "frame {}: planned lock (x, y, orientation) = {target:?}, engine {got:?}",
                        nes.frame()
                    ));
                }
            }
            pieces += 1;
            plan = None;
        }
        if events.has(Events::LINES_CLEARED)
            && let Some(cap) = config.max_lines
            && config.game_type == 0
            && nes.player1.lines_decimal() >= cap
        {
            break GameEnd::LineCap;
        }
    };
    GameResult {
        score: nes.player1.score_decimal(),
        lines: nes.player1.lines_decimal(),
        level: nes.player1.level_number,
        frames: nes.frame(),
        pieces,
        end,
        input,
    }
}

/// The buttons for the next frame during play: plans a piece when it comes under control,
/// re-plans once the preview is known, and otherwise follows the plan (nothing between pieces).
fn next_play_buttons(
    nes: &Nes,
    player: &Player,
    ws: &mut Workspace,
    plan: &mut Option<PiecePlan>,
) -> Buttons {
    // The next frame runs the player's update (fallTimer, shift, rotate, drop) only when the
    // main loop is back at gameModeState 2 with an active piece.
    let controllable = nes.game_mode_state == 2 && nes.player1.play_state == play_state::ACTIVE;
    if !controllable {
        return Buttons::NONE;
    }
    let situation = Situation {
        level: nes.player1.level_number,
        lines: nes.player1.lines,
        game_type: nes.game_type,
    };
    let reaction = player.input.reaction;
    let waiting = (nes.player1.autorepeat_y as i8) < OPENING_DELAY_PLAN_AT;
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
        let informed = p.frame >= reaction;
        let start = PieceState::from_nes(nes, p.frame);
        let next = informed.then_some(nes.next_piece);
        match player.decide(ws, &nes.playfield, start, situation, next) {
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
