//! The frame vector environment's games: N engines stepped one frame per call (or K, for
//! `step_frames`), each writing its observation, rewards and flags into row `i` of the batched
//! arrays.
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
use playfield_nes::{Buttons, Nes};

use crate::error::GameError;
use crate::game::{
    BOARD_CELLS, NES_STATE_LEN, NesSettings, Reward, capped, game_over, line_points,
    next_episode_seed, write_board, write_state_with,
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
        let (mut nes, _) = self
            .settings
            .level_menu
            .start_game(&config)
            .ok_or(GameError::NoFirstPiece)?;
        crate::rom::give(self.settings.rom.as_ref(), &mut nes);
        Ok(cell.get_or_init(|| Box::new(nes)))
    }
}

/// One game of the vector.
#[derive(Clone, Debug)]
struct Slot {
    nes: Nes,
    /// The engine's lines and score as numbers (decoded when their BCD bytes change).
    lines: u32,
    score: u32,
    /// The episode's seed.
    seed: u64,
    /// The episode ended: the next step resets it (its action is ignored).
    needs_reset: bool,
}

/// The batched outputs of a call: the observations after its last frame, and each frame's
/// rewards and flags (`frames` rows of `num_envs`).
pub struct Outputs<'a> {
    /// `num_envs × 200` board cells.
    pub board: &'a mut [u8],
    /// `num_envs × NES_STATE_LEN` state fields.
    pub state: &'a mut [i32],
    /// `frames × num_envs` rewards (empty for a reset).
    pub reward: &'a mut [f64],
    /// `frames × num_envs` flags (empty for a reset).
    pub terminated: &'a mut [bool],
    /// `frames × num_envs` flags (empty for a reset).
    pub truncated: &'a mut [bool],
}

/// One frame's rewards and flags of one thread's games.
struct FrameRow<'a> {
    reward: &'a mut [f64],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
}

/// One thread's run of consecutive games and their outputs.
struct Part<'a> {
    slots: &'a mut [Slot],
    /// Index of the first game in the vector.
    first: usize,
    board: &'a mut [u8],
    state: &'a mut [i32],
    /// One per frame of the call (none for a reset).
    rows: Vec<FrameRow<'a>>,
}

/// The least frames a call gives each thread (chosen, not tuned): a frame is tens of
/// nanoseconds, and a hand-over is at least a few cache lines passed between cores, or a wake-up
/// through the kernel when the thread slept.
const MIN_FRAMES_PER_THREAD: usize = 64;

/// N frame games on a team of threads.
pub struct FrameVector {
    settings: NesSettings,
    starts: StartStates,
    /// Empty until the first reset.
    slots: Vec<Slot>,
    num_envs: usize,
    team: Team,
}

/// What a thread does with its part.
#[derive(Clone, Copy)]
enum Work<'a> {
    /// Start game `i` with `seeds[i]`.
    Reset { seeds: &'a [u64] },
    /// Step `frames` frames; game `i` plays `actions[k × num_envs + i]` at frame `k`.
    Step { actions: &'a [i64], frames: usize },
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

    /// Starts game `i` with `seeds[i]` (`num_envs` of them) and writes the observations (`out`'s
    /// rewards and flags may be empty; they are left alone).
    pub fn reset(&mut self, seeds: &[u64], out: Outputs<'_>) -> Result<(), GameError> {
        let first = self
            .starts
            .get(seeds.first().copied().unwrap_or(0))?
            .clone();
        let mut slots = vec![
            Slot {
                nes: first,
                lines: 0,
                score: 0,
                seed: 0,
                needs_reset: true,
            };
            self.num_envs
        ];
        let result = self.run(&mut slots, Work::Reset { seeds }, out);
        self.slots = slots;
        if result.is_err() {
            // A game that could not start leaves the vector unstarted.
            self.slots.clear();
        }
        result
    }

    /// Restarts now, with their next episode's seed, the games that ended, writes their
    /// observations into their rows of `board` and `state`, and returns their indices.
    pub fn reset_done(
        &mut self,
        board: &mut [u8],
        state: &mut [i32],
    ) -> Result<Vec<usize>, GameError> {
        let mut done = Vec::new();
        let rows = board
            .chunks_exact_mut(BOARD_CELLS)
            .zip(state.chunks_exact_mut(NES_STATE_LEN));
        for (i, (slot, (board, state))) in self.slots.iter_mut().zip(rows).enumerate() {
            if slot.needs_reset {
                slot.start(next_episode_seed(slot.seed), &self.starts)?;
                slot.write_obs(board, state);
                done.push(i);
            }
        }
        Ok(done)
    }

    /// Steps every game `frames` frames (at least 1): game `i` plays `actions[k × num_envs + i]`
    /// (a buttons byte) at frame `k`; a game that ended ignores the next frame's action and
    /// restarts instead with its next episode's seed, reporting 0, false, false for that frame.
    /// Each frame's rewards and flags go to row `k` of `out`'s, the observations after the last
    /// frame to its board and state. With one frame, a game that is about to restart is the only
    /// one whose action may be anything; with more, every action must be a buttons byte. All
    /// are checked before any game moves.
    pub fn step(
        &mut self,
        actions: &[i64],
        frames: usize,
        out: Outputs<'_>,
    ) -> Result<(), GameError> {
        if self.slots.is_empty() {
            return Err(GameError::NotReset);
        }
        let n = self.num_envs;
        let bad = actions.iter().enumerate().find(|&(i, &a)| {
            !(0..256).contains(&a) && (frames > 1 || !self.slots[i % n].needs_reset)
        });
        if let Some((i, &action)) = bad {
            return Err(GameError::SubEnvironment {
                index: i % n,
                source: Box::new(GameError::NotAButtonsByte { action }),
            });
        }
        let mut slots = std::mem::take(&mut self.slots);
        let result = self.run(&mut slots, Work::Step { actions, frames }, out);
        self.slots = slots;
        result
    }

    /// Splits the games and outputs into one run per thread and does `work` on each run.
    fn run(
        &mut self,
        slots: &mut [Slot],
        work: Work<'_>,
        out: Outputs<'_>,
    ) -> Result<(), GameError> {
        let n = slots.len();
        // Fewer threads than the team has when the work is too little to be worth a hand-over.
        let frames = match work {
            Work::Reset { .. } => MIN_FRAMES_PER_THREAD,
            Work::Step { frames, .. } => frames,
        };
        let threads = self
            .team
            .threads()
            .min((n * frames).div_ceil(MIN_FRAMES_PER_THREAD))
            .max(1);
        let settings = &self.settings;
        let starts = &self.starts;
        let do_part = |part: Part<'_>| match work {
            Work::Reset { seeds } => reset_part(part, seeds, starts),
            Work::Step { actions, frames } => step_part(part, actions, n, frames, settings, starts),
        };
        let all_rows = out
            .reward
            .chunks_mut(n.max(1))
            .zip(out.terminated.chunks_mut(n.max(1)))
            .zip(out.truncated.chunks_mut(n.max(1)))
            .map(|((reward, terminated), truncated)| FrameRow {
                reward,
                terminated,
                truncated,
            });
        if threads == 1 {
            // On this thread, without the team or any lock.
            return do_part(Part {
                slots,
                first: 0,
                board: out.board,
                state: out.state,
                rows: all_rows.collect(),
            });
        }
        let len = n.div_ceil(threads).max(1);
        // Each frame's row split into the threads' runs.
        let mut rows_by_part: Vec<Vec<_>> =
            (0..threads).map(|_| Vec::with_capacity(frames)).collect();
        for row in all_rows {
            let runs = row
                .reward
                .chunks_mut(len)
                .zip(row.terminated.chunks_mut(len))
                .zip(row.truncated.chunks_mut(len));
            for (part, ((reward, terminated), truncated)) in rows_by_part.iter_mut().zip(runs) {
                part.push(FrameRow {
                    reward,
                    terminated,
                    truncated,
                });
            }
        }
        let mut boards = out.board.chunks_mut(len * BOARD_CELLS);
        let mut states = out.state.chunks_mut(len * NES_STATE_LEN);
        let parts: Vec<Mutex<Option<Part<'_>>>> = slots
            .chunks_mut(len)
            .zip(rows_by_part)
            .enumerate()
            .map(|(index, (slots, part_rows))| {
                Mutex::new(Some(Part {
                    slots,
                    first: index * len,
                    board: boards.next().unwrap_or_default(),
                    state: states.next().unwrap_or_default(),
                    rows: part_rows,
                }))
            })
            .collect();
        let errors: Mutex<Option<GameError>> = Mutex::new(None);
        self.team.run(threads, &|index| {
            let part = parts
                .get(index)
                .and_then(|p| p.lock().ok().and_then(|mut p| p.take()));
            let Some(part) = part else { return };
            if let Err(e) = do_part(part)
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

impl Slot {
    /// Starts the episode of `seed`.
    fn start(&mut self, seed: u64, starts: &StartStates) -> Result<(), GameError> {
        self.nes.clone_from(starts.get(seed)?);
        self.lines = self.nes.line_count();
        self.score = self.nes.score();
        self.seed = seed;
        self.needs_reset = false;
        Ok(())
    }

    fn write_obs(&self, board: &mut [u8], state: &mut [i32]) {
        write_board(&self.nes, board);
        write_state_with(&self.nes, false, self.lines, self.score, state);
    }
}

fn reset_part(part: Part<'_>, seeds: &[u64], starts: &StartStates) -> Result<(), GameError> {
    let boards = part.board.chunks_exact_mut(BOARD_CELLS);
    let states = part.state.chunks_exact_mut(NES_STATE_LEN);
    let seeds = seeds.get(part.first..).unwrap_or_default();
    for (((slot, &seed), board), state) in part.slots.iter_mut().zip(seeds).zip(boards).zip(states)
    {
        slot.start(seed, starts)?;
        slot.write_obs(board, state);
    }
    Ok(())
}

/// One frame of one game (`FrameGame::step`, or the restart of a game that ended): reward,
/// terminated, truncated.
#[inline]
fn frame(
    slot: &mut Slot,
    action: i64,
    allowed: u8,
    settings: &NesSettings,
    starts: &StartStates,
) -> Result<(f64, bool, bool), GameError> {
    if slot.needs_reset {
        slot.start(next_episode_seed(slot.seed), starts)?;
        return Ok((0.0, false, false));
    }
    let nes = &mut slot.nes;
    // Checked in `FrameVector::step`: a buttons byte.
    let buttons = Buttons::from_bits_retain(action as u8 & allowed);
    let events = nes.step(buttons);
    // The slot keeps the lines and the score of the frame before: most frames score nothing.
    let (lines, score) = (nes.line_count(), nes.score());
    let reward = if score == slot.score && lines == slot.lines {
        0.0
    } else {
        let (lines_before, score_before) = (slot.lines, slot.score);
        slot.lines = lines;
        slot.score = score;
        match settings.reward {
            Reward::Score => f64::from(slot.score) - f64::from(score_before),
            Reward::Lines => f64::from(slot.lines) - f64::from(lines_before),
            Reward::LinePoints => line_points(slot.lines.abs_diff(lines_before), nes.level()),
        }
    };
    let over = game_over(nes, events);
    let cap = !over && capped(nes, &settings.config);
    slot.needs_reset = over || cap;
    Ok((reward, over, cap))
}

/// Steps a thread's games `frames` frames each, one game at a time (its engine stays in the
/// cache for all of them).
fn step_part(
    part: Part<'_>,
    actions: &[i64],
    num_envs: usize,
    frames: usize,
    settings: &NesSettings,
    starts: &StartStates,
) -> Result<(), GameError> {
    let Part {
        slots,
        first,
        board,
        state,
        mut rows,
    } = part;
    // What `FrameGame::check_action` lets through: Start and Select only when allowed.
    let allowed = if settings.start_select {
        0xFF
    } else {
        !(Buttons::START.bits() | Buttons::SELECT.bits())
    };
    let boards = board.chunks_exact_mut(BOARD_CELLS);
    let states = state.chunks_exact_mut(NES_STATE_LEN);
    if let [row] = rows.as_mut_slice() {
        // One frame (`step`): the same, in one pass over the games and their outputs.
        let actions = actions.get(first..).unwrap_or_default();
        let flags = row
            .reward
            .iter_mut()
            .zip(row.terminated.iter_mut())
            .zip(row.truncated.iter_mut());
        for ((((slot, &action), board), state), ((r, te), tr)) in slots
            .iter_mut()
            .zip(actions)
            .zip(boards)
            .zip(states)
            .zip(flags)
        {
            (*r, *te, *tr) = frame(slot, action, allowed, settings, starts)?;
            slot.write_obs(board, state);
        }
        return Ok(());
    }
    for (j, ((slot, board), state)) in slots.iter_mut().zip(boards).zip(states).enumerate() {
        let game_actions = actions.iter().skip(first + j).step_by(num_envs.max(1));
        for (row, &action) in rows.iter_mut().zip(game_actions).take(frames) {
            let (reward, terminated, truncated) = frame(slot, action, allowed, settings, starts)?;
            if let (Some(r), Some(te), Some(tr)) = (
                row.reward.get_mut(j),
                row.terminated.get_mut(j),
                row.truncated.get_mut(j),
            ) {
                *r = reward;
                *te = terminated;
                *tr = truncated;
            }
        }
        slot.write_obs(board, state);
    }
    Ok(())
}
