//! The frame vector environment's games: N engines stepped one frame per call, each writing its
//! observation, reward and flags into row `i` of the batched arrays.
//!
//! The games are the single frame environment's (`FrameGame`), kept lean for the vector: the
//! engines sit in one contiguous `Vec` without the buttons history a single environment keeps for
//! pickling, every game writes its outputs straight into the caller's arrays, the games are split
//! into one run of consecutive games per thread of a [`Team`], and a game that ended restarts
//! from a copy of its next episode's start state, made once per menu wait ([`StartStates`])
//! instead of going through the level menu again. What each game plays is unchanged: the start
//! state is the one `Recorded::start` reaches for the seed, and a frame is `FrameGame::step`.

use std::sync::{Mutex, OnceLock};

use playfield_ai::nes::GameConfig;
use playfield_ai::nes::game::MAX_MENU_WAIT;
use playfield_nes::raw::bcd;
use playfield_nes::{Buttons, Nes};

use crate::error::GameError;
use crate::game::{
    BOARD_CELLS, NES_STATE_LEN, NesSettings, Reward, capped, game_over, next_episode_seed,
    write_board, write_state,
};
use crate::team::Team;

/// The first frame under control of every episode the settings can start, one per menu wait
/// (the only thing a seed changes before the first piece), each made the first time it is
/// needed.
pub struct StartStates {
    settings: NesSettings,
    by_wait: Vec<OnceLock<Box<Nes>>>,
}

impl StartStates {
    /// None made yet.
    pub fn new(settings: NesSettings) -> Self {
        StartStates {
            settings,
            by_wait: (0..MAX_MENU_WAIT).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The engine at the first piece under control of the episode with `seed`: the state
    /// `Recorded::start` reaches.
    pub fn get(&self, seed: u64) -> Result<&Nes, GameError> {
        let config = GameConfig {
            seed,
            ..self.settings.config
        };
        let cell = usize::try_from(config.menu_wait())
            .ok()
            .and_then(|wait| self.by_wait.get(wait))
            .ok_or(GameError::NoFirstPiece)?;
        if let Some(nes) = cell.get() {
            return Ok(nes);
        }
        let (nes, _) = self
            .settings
            .level_menu
            .start_game(&config)
            .ok_or(GameError::NoFirstPiece)?;
        Ok(cell.get_or_init(|| Box::new(nes)))
    }
}

/// One game of the vector.
#[derive(Clone, Debug)]
struct Slot {
    nes: Nes,
    /// The episode's seed.
    seed: u64,
    /// The episode ended: the next step resets it (its action is ignored).
    needs_reset: bool,
}

/// The batched outputs of a step (or of a reset, which writes the observation only).
pub struct Outputs<'a> {
    /// `num_envs × 200` board cells.
    pub board: &'a mut [u8],
    /// `num_envs × NES_STATE_LEN` state fields.
    pub state: &'a mut [i32],
    /// `num_envs` rewards (empty for a reset).
    pub reward: &'a mut [f64],
    /// `num_envs` flags (empty for a reset).
    pub terminated: &'a mut [bool],
    /// `num_envs` flags (empty for a reset).
    pub truncated: &'a mut [bool],
}

/// One thread's run of consecutive games and their outputs.
struct Part<'a> {
    slots: &'a mut [Slot],
    actions: &'a [i64],
    seeds: &'a [u64],
    out: Outputs<'a>,
}

/// Splits `slice` into `parts` runs of `len` (the last ones shorter or empty).
fn runs<T>(mut slice: &mut [T], len: usize, parts: usize) -> Vec<&mut [T]> {
    (0..parts)
        .map(|_| {
            let at = len.min(slice.len());
            let (head, tail) = std::mem::take(&mut slice).split_at_mut(at);
            slice = tail;
            head
        })
        .collect()
}

/// Shared-slice version of [`runs`].
fn runs_ref<T>(mut slice: &[T], len: usize, parts: usize) -> Vec<&[T]> {
    (0..parts)
        .map(|_| {
            let (head, tail) = slice.split_at(len.min(slice.len()));
            slice = tail;
            head
        })
        .collect()
}

/// N frame games on a team of threads.
pub struct FrameVector {
    settings: NesSettings,
    starts: StartStates,
    /// Empty until the first reset.
    slots: Vec<Slot>,
    num_envs: usize,
    team: Team,
}

impl FrameVector {
    /// `num_envs` games of `settings` on `threads` threads (the caller's and `threads - 1`).
    pub fn new(settings: NesSettings, num_envs: usize, threads: usize) -> std::io::Result<Self> {
        Ok(FrameVector {
            starts: StartStates::new(settings.clone()),
            settings,
            slots: Vec::new(),
            num_envs,
            team: Team::new(threads)?,
        })
    }

    /// Threads stepping the games.
    pub fn threads(&self) -> usize {
        self.team.threads()
    }

    /// The seeds of the current episodes (empty before the first reset).
    pub fn seeds(&self) -> Vec<u64> {
        self.slots.iter().map(|s| s.seed).collect()
    }

    /// Starts game `i` with `seeds[i]` and writes the observations (`out`'s rewards and flags
    /// may be empty; they are left alone).
    pub fn reset(&mut self, seeds: &[u64], out: Outputs<'_>) -> Result<(), GameError> {
        let first = self
            .starts
            .get(seeds.first().copied().unwrap_or(0))?
            .clone();
        let mut slots = vec![
            Slot {
                nes: first,
                seed: 0,
                needs_reset: true,
            };
            self.num_envs
        ];
        let result = self.run(&mut slots, &[], seeds, out, true);
        self.slots = slots;
        if result.is_err() {
            // A game that could not start leaves the vector unstarted.
            self.slots.clear();
        }
        result
    }

    /// Steps every game one frame with its action (a buttons byte; ignored by a game that
    /// ended, which restarts instead with its next episode's seed and reports 0, false, false).
    /// Every action is checked before any game moves.
    pub fn step(&mut self, actions: &[i64], out: Outputs<'_>) -> Result<(), GameError> {
        if self.slots.is_empty() {
            return Err(GameError::NotReset);
        }
        if let Some((index, &action)) = actions
            .iter()
            .enumerate()
            .find(|&(i, &a)| !(0..256).contains(&a) && !self.slots[i].needs_reset)
        {
            return Err(GameError::SubEnvironment {
                index,
                source: Box::new(GameError::NotAButtonsByte { action }),
            });
        }
        let mut slots = std::mem::take(&mut self.slots);
        let result = self.run(&mut slots, actions, &[], out, false);
        self.slots = slots;
        result
    }

    /// Splits the games and outputs into one run per thread and steps (or resets) each run.
    fn run(
        &mut self,
        slots: &mut [Slot],
        actions: &[i64],
        seeds: &[u64],
        out: Outputs<'_>,
        reset: bool,
    ) -> Result<(), GameError> {
        let threads = self.team.threads();
        let len = slots.len().div_ceil(threads).max(1);
        let mut boards = runs(out.board, len * BOARD_CELLS, threads).into_iter();
        let mut states = runs(out.state, len * NES_STATE_LEN, threads).into_iter();
        let mut rewards = runs(out.reward, len, threads).into_iter();
        let mut terminated = runs(out.terminated, len, threads).into_iter();
        let mut truncated = runs(out.truncated, len, threads).into_iter();
        let mut actions = runs_ref(actions, len, threads).into_iter();
        let mut seeds = runs_ref(seeds, len, threads).into_iter();
        let parts: Vec<Mutex<Option<Part<'_>>>> = runs(slots, len, threads)
            .into_iter()
            .map(|slots| {
                Mutex::new(Some(Part {
                    slots,
                    actions: actions.next().unwrap_or_default(),
                    seeds: seeds.next().unwrap_or_default(),
                    out: Outputs {
                        board: boards.next().unwrap_or_default(),
                        state: states.next().unwrap_or_default(),
                        reward: rewards.next().unwrap_or_default(),
                        terminated: terminated.next().unwrap_or_default(),
                        truncated: truncated.next().unwrap_or_default(),
                    },
                }))
            })
            .collect();
        let errors: Mutex<Option<GameError>> = Mutex::new(None);
        let settings = &self.settings;
        let starts = &self.starts;
        self.team.run(&|index| {
            let part = parts
                .get(index)
                .and_then(|p| p.lock().ok().and_then(|mut p| p.take()));
            let Some(part) = part else { return };
            let result = if reset {
                reset_part(part, starts)
            } else {
                step_part(part, settings, starts)
            };
            if let Err(e) = result
                && let Ok(mut first) = errors.lock()
            {
                first.get_or_insert(e);
            }
        });
        match errors.into_inner() {
            Ok(Some(e)) => Err(e),
            _ => Ok(()),
        }
    }
}

/// `PlayerVars::score_decimal` of the BCD bytes `score`.
fn score_decimal(score: [u8; 3]) -> u32 {
    bcd(score[2]) * 10_000 + bcd(score[1]) * 100 + bcd(score[0])
}

/// `PlayerVars::lines_decimal` of the BCD bytes `lines`.
fn lines_decimal(lines: [u8; 2]) -> u32 {
    bcd(lines[1]) * 100 + bcd(lines[0])
}

fn write_obs(nes: &Nes, board: &mut [u8], state: &mut [i32]) {
    write_board(nes, board);
    write_state(nes, false, state);
}

fn reset_part(part: Part<'_>, starts: &StartStates) -> Result<(), GameError> {
    let boards = part.out.board.chunks_exact_mut(BOARD_CELLS);
    let states = part.out.state.chunks_exact_mut(NES_STATE_LEN);
    for (((slot, &seed), board), state) in part
        .slots
        .iter_mut()
        .zip(part.seeds)
        .zip(boards)
        .zip(states)
    {
        slot.nes.clone_from(starts.get(seed)?);
        slot.seed = seed;
        slot.needs_reset = false;
        write_obs(&slot.nes, board, state);
    }
    Ok(())
}

fn step_part(
    part: Part<'_>,
    settings: &NesSettings,
    starts: &StartStates,
) -> Result<(), GameError> {
    let Part {
        slots,
        actions,
        out,
        ..
    } = part;
    // What `FrameGame::check_action` lets through: Start and Select only when allowed.
    let allowed = if settings.start_select {
        0xFF
    } else {
        !(Buttons::START.0 | Buttons::SELECT.0)
    };
    let boards = out.board.chunks_exact_mut(BOARD_CELLS);
    let states = out.state.chunks_exact_mut(NES_STATE_LEN);
    let flags = out
        .reward
        .iter_mut()
        .zip(out.terminated.iter_mut())
        .zip(out.truncated.iter_mut());
    for ((((slot, &action), board), state), ((reward, terminated), truncated)) in slots
        .iter_mut()
        .zip(actions)
        .zip(boards)
        .zip(states)
        .zip(flags)
    {
        if slot.needs_reset {
            let seed = next_episode_seed(slot.seed);
            slot.nes.clone_from(starts.get(seed)?);
            slot.seed = seed;
            slot.needs_reset = false;
            *reward = 0.0;
            *terminated = false;
            *truncated = false;
        } else {
            let nes = &mut slot.nes;
            // Checked in `FrameVector::step`: a buttons byte.
            let buttons = Buttons(action as u8 & allowed);
            let p = &nes.raw().player1;
            let (score, lines) = (p.score, p.lines);
            let events = nes.step(buttons);
            let p = &nes.raw().player1;
            // The BCD bytes compared first: most frames score nothing.
            *reward = if p.score == score && p.lines == lines {
                0.0
            } else {
                match settings.reward {
                    Reward::Score => f64::from(p.score_decimal()) - f64::from(score_decimal(score)),
                    Reward::Lines => f64::from(p.lines_decimal()) - f64::from(lines_decimal(lines)),
                }
            };
            let over = game_over(nes, events);
            let cap = !over && capped(nes, &settings.config);
            *terminated = over;
            *truncated = cap;
            slot.needs_reset = over || cap;
        }
        write_obs(&slot.nes, board, state);
    }
    Ok(())
}
