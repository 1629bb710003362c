//! The Python classes behind the Gymnasium environments: `EnvCore` (one game) and `VectorCore`
//! (N games stepped in parallel on a rayon pool, written into the caller's numpy arrays).

use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArray2,
    PyUntypedArrayMethods,
};
use playfield_ai::nes::GameConfig;
use playfield_ai::standard::MoveModel;
use playfield_nes::GameType;
use playfield_standard::EndRule;
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::error::{ArgError, Dims, GameError};
use crate::frames::{FrameVector, Outputs};
use crate::game::{
    AFTERSTATE_FEATURES, AFTERSTATE_SLOTS, COLS, FrameGame, NES_ACTIONS, NES_STATE_LEN,
    NesSettings, PlacementGame, ROWS, Reward, STANDARD_ACTIONS, STANDARD_STATE_LEN,
    StandardEnvGame, StandardSettings, StepOutcome, next_episode_seed, placement_action,
    vector_seed,
};
use crate::nes::input_model;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<EnvCore>()?;
    m.add_class::<VectorCore>()?;
    m.add_class::<FrameVectorCore>()?;
    m.add("NES_ACTIONS", NES_ACTIONS)?;
    m.add("STANDARD_ACTIONS", STANDARD_ACTIONS)?;
    m.add("STANDARD_STATE_LEN", STANDARD_STATE_LEN)?;
    m.add("AFTERSTATE_SLOTS", AFTERSTATE_SLOTS)?;
    m.add("AFTERSTATE_FEATURES", AFTERSTATE_FEATURES)?;
    m.add("MAX_THREADS", MAX_THREADS)?;
    Ok(())
}

/// One environment's game, of any kind (kept inline: a vector environment holds them in one
/// contiguous `Vec`, and the sizes differ by a few hundred bytes only).
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
enum AnyGame {
    Placement(PlacementGame),
    Frame(FrameGame),
    Standard(StandardEnvGame),
}

impl AnyGame {
    fn reset(&mut self, seed: u64) -> Result<(), GameError> {
        match self {
            AnyGame::Placement(g) => g.reset(seed),
            AnyGame::Frame(g) => g.reset(seed),
            AnyGame::Standard(g) => g.reset(seed),
        }
    }

    fn check(&self, action: i64) -> Result<(), GameError> {
        match self {
            AnyGame::Placement(g) => g.check_action(action).map(drop),
            AnyGame::Frame(g) => g.check_action(action).map(drop),
            AnyGame::Standard(g) => g.check_action(action).map(drop),
        }
    }

    fn step(&mut self, action: i64) -> Result<StepOutcome, GameError> {
        match self {
            AnyGame::Placement(g) => g.step(action),
            AnyGame::Frame(g) => g.step(action),
            AnyGame::Standard(g) => g.step(action),
        }
    }

    fn write(&self, board: &mut [u8], state: &mut [i32], mask: &mut [i8]) {
        match self {
            AnyGame::Placement(g) => g.write_obs(board, state, mask),
            AnyGame::Frame(g) => g.write_obs(board, state),
            AnyGame::Standard(g) => g.write_obs(board, state, mask),
        }
    }

    fn seed(&self) -> u64 {
        match self {
            AnyGame::Placement(g) => g.seed,
            AnyGame::Frame(g) => g.seed,
            AnyGame::Standard(g) => g.seed,
        }
    }

    fn done(&self) -> bool {
        match self {
            AnyGame::Placement(g) => g.done,
            AnyGame::Frame(g) => g.done,
            AnyGame::Standard(g) => g.done,
        }
    }

    fn board_shape(&self) -> (usize, usize) {
        match self {
            AnyGame::Standard(g) => (g.settings.height, COLS),
            _ => (ROWS, COLS),
        }
    }

    fn state_len(&self) -> usize {
        match self {
            AnyGame::Standard(_) => STANDARD_STATE_LEN,
            _ => NES_STATE_LEN,
        }
    }

    /// Actions of a discrete action space.
    fn num_actions(&self) -> usize {
        match self {
            AnyGame::Placement(_) => NES_ACTIONS,
            AnyGame::Frame(_) => 256,
            AnyGame::Standard(_) => STANDARD_ACTIONS,
        }
    }

    /// Whether the observation has an action mask.
    fn masked(&self) -> bool {
        !matches!(self, AnyGame::Frame(_))
    }
}

fn reward(name: &str) -> PyResult<Reward> {
    Ok(Reward::parse(name)?)
}

/// One game of an environment, stepped from Python.
#[pyclass(module = "playfield._playfield")]
#[derive(Clone)]
pub struct EnvCore {
    game: AnyGame,
    /// The actions since the last reset (pickling replays them from the episode's seed).
    actions: Vec<i64>,
    started: bool,
}

impl EnvCore {
    fn wrap(game: AnyGame) -> Self {
        EnvCore {
            game,
            actions: Vec::new(),
            started: false,
        }
    }

    /// The NES game's ROM, if it was given one (none for Standard Tetris).
    fn rom(&self) -> Option<&crate::rom::GivenRom> {
        match &self.game {
            AnyGame::Placement(g) => g.settings.rom.as_ref(),
            AnyGame::Frame(g) => g.settings.rom.as_ref(),
            AnyGame::Standard(_) => None,
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn nes_settings(
    level: u8,
    game_type: u8,
    height: u8,
    music: u8,
    input: &str,
    das: bool,
    reaction: u32,
    soft_drop: bool,
    reward_name: &str,
    max_lines: Option<u32>,
    max_frames: Option<u64>,
    start_select: bool,
    rom: Option<&str>,
) -> PyResult<NesSettings> {
    let rom = crate::rom::given_rom(rom)?;
    if game_type > 1 {
        return Err(ArgError::EnvGameType(game_type).into());
    }
    let config = GameConfig {
        game_type: GameType::from_raw(game_type),
        level,
        height,
        music,
        seed: 0,
        max_lines,
        max_frames,
        stop_at_max_score: false,
        double_speed_level: None,
        held_out: false,
        survive_at_max_score: false,
    };
    config.validate().map_err(ArgError::from)?;
    let mut input = input_model(input, das, reaction)?;
    input.soft_drop = soft_drop;
    Ok(NesSettings {
        config,
        input,
        reward: reward(reward_name)?,
        start_select,
        level_menu: crate::game::level_menu(&config)?,
        rom,
    })
}

/// Reads a 2-D array's rows as one contiguous slice, checking its shape.
fn rows_mut<'a, T: numpy::Element>(
    a: &'a mut PyReadwriteArray2<'_, T>,
    name: &'static str,
    rows: usize,
    cols: usize,
) -> PyResult<&'a mut [T]> {
    let shape = a.shape().to_vec();
    if shape != [rows, cols] {
        return Err(ArgError::Shape {
            name,
            want: Dims(vec![rows, cols]),
            got: shape,
        }
        .into());
    }
    Ok(a.as_slice_mut()
        .map_err(|_| ArgError::NotContiguous(name))?)
}

/// Reads a batch of boards (games × rows × columns) as one contiguous slice, checking its shape.
fn boards_mut<'a>(
    a: &'a mut numpy::PyReadwriteArray3<'_, u8>,
    games: usize,
    rows: usize,
    cols: usize,
) -> PyResult<&'a mut [u8]> {
    let shape = a.shape().to_vec();
    if shape != [games, rows, cols] {
        return Err(ArgError::Shape {
            name: "board",
            want: Dims(vec![games, rows, cols]),
            got: shape,
        }
        .into());
    }
    Ok(a.as_slice_mut()
        .map_err(|_| ArgError::NotContiguous("board"))?)
}

fn vec_mut<'a, T: numpy::Element>(
    a: &'a mut PyReadwriteArray1<'_, T>,
    name: &'static str,
    len: usize,
) -> PyResult<&'a mut [T]> {
    if a.len() != len {
        return Err(ArgError::Length {
            name,
            want: len,
            got: a.len(),
        }
        .into());
    }
    Ok(a.as_slice_mut()
        .map_err(|_| ArgError::NotContiguous(name))?)
}

#[pymethods]
impl EnvCore {
    /// NES Tetris, one placement per step.
    #[staticmethod]
    #[pyo3(signature = (level = 18, game_type = 0, height = 0, music = 3, input = "X.", das = true, reaction = 0, soft_drop = true, reward = "score", max_lines = None, max_frames = None, rom = None))]
    #[allow(clippy::too_many_arguments)]
    fn nes_placement(
        level: u8,
        game_type: u8,
        height: u8,
        music: u8,
        input: &str,
        das: bool,
        reaction: u32,
        soft_drop: bool,
        reward: &str,
        max_lines: Option<u32>,
        max_frames: Option<u64>,
        rom: Option<&str>,
    ) -> PyResult<Self> {
        let s = nes_settings(
            level, game_type, height, music, input, das, reaction, soft_drop, reward, max_lines,
            max_frames, false, rom,
        )?;
        Ok(EnvCore::wrap(AnyGame::Placement(PlacementGame::new(s))))
    }

    /// NES Tetris, one frame per step.
    #[staticmethod]
    #[pyo3(signature = (level = 18, game_type = 0, height = 0, music = 3, reward = "score", max_lines = None, max_frames = None, start_select = false, rom = None))]
    #[allow(clippy::too_many_arguments)]
    fn nes_frames(
        level: u8,
        game_type: u8,
        height: u8,
        music: u8,
        reward: &str,
        max_lines: Option<u32>,
        max_frames: Option<u64>,
        start_select: bool,
        rom: Option<&str>,
    ) -> PyResult<Self> {
        let s = nes_settings(
            level,
            game_type,
            height,
            music,
            "X",
            true,
            0,
            true,
            reward,
            max_lines,
            max_frames,
            start_select,
            rom,
        )?;
        Ok(EnvCore::wrap(AnyGame::Frame(FrameGame::new(s))))
    }

    /// Fahey's Standard Tetris, one placement per step.
    #[staticmethod]
    #[pyo3(signature = (height = 20, level = 1, model = "standard", end_rule = "spawn-blocked", reward = "lines", max_lines = None))]
    fn standard(
        height: usize,
        level: u8,
        model: &str,
        end_rule: &str,
        reward: &str,
        max_lines: Option<u64>,
    ) -> PyResult<Self> {
        let model: MoveModel = model.parse().map_err(ArgError::from)?;
        let end_rule = match end_rule {
            "spawn-blocked" => EndRule::SpawnBlocked,
            "no-placement" => EndRule::NoPlacement,
            _ => return Err(ArgError::EndRule(end_rule.to_owned()).into()),
        };
        if end_rule == EndRule::NoPlacement && model == MoveModel::Standard {
            return Err(ArgError::NoPlacementNeedsSimplified.into());
        }
        playfield_standard::Board::new(height).map_err(ArgError::from)?;
        if !(1..=10).contains(&level) {
            return Err(ArgError::StandardLevel(level).into());
        }
        let s = StandardSettings {
            height,
            level,
            model,
            end_rule,
            reward: crate::envs::reward(reward)?,
            max_lines,
        };
        Ok(EnvCore::wrap(AnyGame::Standard(StandardEnvGame::new(s))))
    }

    /// (rows, columns) of the board observation.
    #[getter]
    fn board_shape(&self) -> (usize, usize) {
        self.game.board_shape()
    }

    /// Length of the state vector.
    #[getter]
    fn state_len(&self) -> usize {
        self.game.state_len()
    }

    /// Size of the discrete action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.game.num_actions()
    }

    /// Whether observations carry an action mask.
    #[getter]
    fn masked(&self) -> bool {
        self.game.masked()
    }

    /// The episode's seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.game.seed()
    }

    /// Whether the episode is over.
    #[getter]
    fn done(&self) -> bool {
        self.game.done()
    }

    /// Frames the active piece has been under control at the decision (NES placement
    /// environment; 0 otherwise): the `frame` a player's search starts from.
    #[getter]
    fn decision_frame(&self) -> u32 {
        match &self.game {
            AnyGame::Placement(g) => g.decision_frame(),
            _ => 0,
        }
    }

    /// The seed the next episode uses when reset without one.
    #[getter]
    fn next_seed(&self) -> u64 {
        next_episode_seed(self.game.seed())
    }

    /// Starts an episode.
    fn reset(&mut self, py: Python<'_>, seed: u64) -> PyResult<()> {
        let game = &mut self.game;
        py.detach(|| game.reset(seed))?;
        self.actions.clear();
        self.started = true;
        Ok(())
    }

    /// Plays one action; returns (reward, terminated, truncated).
    fn step(&mut self, py: Python<'_>, action: i64) -> PyResult<(f64, bool, bool)> {
        self.game.check(action)?;
        let game = &mut self.game;
        let o = if matches!(game, AnyGame::Frame(_)) {
            // One frame is a few tens of nanoseconds: releasing the interpreter would cost more.
            game.step(action)
        } else {
            py.detach(|| game.step(action))
        }?;
        self.actions.push(action);
        Ok((o.reward, o.terminated, o.truncated))
    }

    /// The observation as new arrays: board (rows × columns uint8), state (int32) and the action
    /// mask (int8; None for the frame environment).
    #[allow(clippy::type_complexity)]
    fn observe<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyArray2<u8>>,
        Bound<'py, PyArray1<i32>>,
        Option<Bound<'py, PyArray1<i8>>>,
    )> {
        let (r, c) = self.game.board_shape();
        let mut board = vec![0u8; r * c];
        let mut state = vec![0i32; self.game.state_len()];
        let mut mask = vec![
            0i8;
            if self.game.masked() {
                self.game.num_actions()
            } else {
                0
            }
        ];
        self.game.write(&mut board, &mut state, &mut mask);
        Ok((
            PyArray1::from_vec(py, board).reshape([r, c])?,
            PyArray1::from_vec(py, state),
            self.game.masked().then(|| PyArray1::from_vec(py, mask)),
        ))
    }

    /// Writes the observation into `board` (rows × columns uint8), `state` (int32) and `mask`
    /// (int8, empty for the frame environment).
    fn write_obs(
        &self,
        mut board: PyReadwriteArray2<'_, u8>,
        mut state: PyReadwriteArray1<'_, i32>,
        mut mask: PyReadwriteArray1<'_, i8>,
    ) -> PyResult<()> {
        let (r, c) = self.game.board_shape();
        let board = rows_mut(&mut board, "board", r, c)?;
        let state = vec_mut(&mut state, "state", self.game.state_len())?;
        let n = if self.game.masked() {
            self.game.num_actions()
        } else {
            0
        };
        let mask = vec_mut(&mut mask, "mask", n)?;
        self.game.write(board, state, mask);
        Ok(())
    }

    /// The active piece's placements (NES placement environment): an int32 array with one row
    /// per placement: action, x, y, orientation, frames to lock.
    fn placements<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i32>>> {
        let AnyGame::Placement(g) = &self.game else {
            return Err(ArgError::NotPlacement("placements").into());
        };
        let rows: Vec<i32> = g
            .placements()
            .iter()
            .flat_map(|p| {
                [
                    placement_action(p).map_or(-1, |a| a as i32),
                    i32::from(p.x),
                    i32::from(p.y),
                    i32::from(p.orientation),
                    p.frames as i32,
                ]
            })
            .collect();
        let n = rows.len() / 5;
        PyArray1::from_vec(py, rows).reshape([n, 5])
    }

    /// The buttons of every frame that play `action` (NES placement environment), uint8.
    fn buttons<'py>(&self, py: Python<'py>, action: i64) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let AnyGame::Placement(g) = &self.game else {
            return Err(ArgError::NotPlacement("buttons").into());
        };
        let p = g.check_action(action)?;
        let b: Vec<u8> = g.inputs(&p).iter().map(|b| b.bits()).collect();
        Ok(PyArray1::from_vec(py, b))
    }

    /// Every placement's buttons (NES placement environment): a (placements × longest) uint8
    /// array padded with 0, and the lengths.
    #[allow(clippy::type_complexity)]
    fn all_buttons<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyArray2<u8>>, Bound<'py, PyArray1<i32>>)> {
        let AnyGame::Placement(g) = &self.game else {
            return Err(ArgError::NotPlacement("all_buttons").into());
        };
        // Each placement's buttons end to end, then padded into rows.
        let placements = g.placements();
        let mut all = Vec::new();
        let mut lens = Vec::with_capacity(placements.len());
        for p in placements {
            let before = all.len();
            g.inputs_into(p, &mut all);
            lens.push((all.len() - before) as i32);
        }
        let width = lens.iter().copied().max().unwrap_or(0) as usize;
        let mut flat = vec![0u8; placements.len() * width];
        let mut at = 0;
        for (row, &len) in flat.chunks_mut(width.max(1)).zip(&lens) {
            let len = len as usize;
            row[..len].copy_from_slice(&all[at..at + len]);
            at += len;
        }
        Ok((
            PyArray1::from_vec(py, flat).reshape([placements.len(), width])?,
            PyArray1::from_vec(py, lens),
        ))
    }

    /// The afterstates (NES placement environment): each slot's features (slots × features,
    /// float32, zero when empty) and its placement action (int64, -1 when empty).
    #[allow(clippy::type_complexity)]
    fn afterstates<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<i64>>)> {
        let AnyGame::Placement(g) = &self.game else {
            return Err(ArgError::NotPlacement("afterstates").into());
        };
        let mut features = vec![0f32; AFTERSTATE_SLOTS * AFTERSTATE_FEATURES];
        let mut actions = vec![-1i64; AFTERSTATE_SLOTS];
        g.write_afterstates(&mut features, &mut actions);
        Ok((
            PyArray1::from_vec(py, features).reshape([AFTERSTATE_SLOTS, AFTERSTATE_FEATURES])?,
            PyArray1::from_vec(py, actions),
        ))
    }

    /// Whether the NES engine models lag frames and crashes (it was given the ROM); false for
    /// Standard Tetris.
    #[getter]
    fn lag_modelled(&self) -> bool {
        self.rom().is_some()
    }

    /// The NES engine of the episode (a copy), for the players and for inspection.
    fn nes(&self) -> PyResult<crate::nes::PyNes> {
        let game = match &self.game {
            AnyGame::Placement(g) => g.game.as_ref(),
            AnyGame::Frame(g) => g.game.as_ref(),
            AnyGame::Standard(_) => None,
        };
        game.map(|g| crate::nes::PyNes::from_recorded(g, self.rom()))
            .ok_or_else(|| ArgError::NoNesGame.into())
    }

    /// A copy (the game and its history): what `save()` keeps and `restore()` returns to.
    fn copy(&self) -> Self {
        self.clone()
    }

    /// What pickling needs: whether started, the episode's seed and its actions.
    fn snapshot(&self) -> (bool, u64, Vec<i64>) {
        (self.started, self.game.seed(), self.actions.clone())
    }

    /// Rebuilds a snapshot by replaying its actions from its seed (exact).
    fn load_snapshot(&mut self, py: Python<'_>, snapshot: (bool, u64, Vec<i64>)) -> PyResult<()> {
        let (started, seed, actions) = snapshot;
        if !started {
            return Ok(());
        }
        self.reset(py, seed)?;
        for a in actions {
            self.step(py, a)?;
        }
        Ok(())
    }
}

/// N games stepped together on a thread pool, writing into batched numpy arrays. Sub-games that
/// ended are reset on the next step (Gymnasium's next-step autoreset): their action is ignored
/// and they report reward 0, not terminated, not truncated.
#[pyclass(module = "playfield._playfield")]
pub struct VectorCore {
    games: Vec<AnyGame>,
    needs_reset: Vec<bool>,
    pool: rayon::ThreadPool,
    template: AnyGame,
}

/// Output slices of one sub-game.
struct Out<'a> {
    board: &'a mut [u8],
    state: &'a mut [i32],
    mask: &'a mut [i8],
}

impl VectorCore {
    /// Splits the batched arrays into per-game slices.
    fn split<'a>(
        &self,
        board: &'a mut [u8],
        state: &'a mut [i32],
        mask: &'a mut [i8],
    ) -> Vec<Out<'a>> {
        let (r, c) = self.template.board_shape();
        let s = self.template.state_len();
        let m = if self.template.masked() {
            self.template.num_actions()
        } else {
            0
        };
        let n = self.games.len();
        let mut boards = board.chunks_mut(r * c);
        let mut states = state.chunks_mut(s);
        let mut masks: Box<dyn Iterator<Item = &mut [i8]>> = if m == 0 {
            Box::new(std::iter::repeat_with(|| &mut [][..]))
        } else {
            Box::new(mask.chunks_mut(m))
        };
        (0..n)
            .map(|_| Out {
                board: boards.next().unwrap_or_default(),
                state: states.next().unwrap_or_default(),
                mask: masks.next().unwrap_or_default(),
            })
            .collect()
    }
}

#[pymethods]
impl VectorCore {
    /// `num_envs` copies of `template`'s game, stepped on `num_threads` threads (default: one
    /// per core).
    #[new]
    #[pyo3(signature = (template, num_envs, num_threads = None))]
    fn new(template: &EnvCore, num_envs: usize, num_threads: Option<usize>) -> PyResult<Self> {
        if num_envs == 0 {
            return Err(ArgError::Zero("num_envs").into());
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(thread_count(num_threads)?)
            .build()
            .map_err(ArgError::from)?;
        Ok(VectorCore {
            games: vec![template.game.clone(); num_envs],
            needs_reset: vec![false; num_envs],
            pool,
            template: template.game.clone(),
        })
    }

    /// Threads of the pool.
    #[getter]
    fn num_threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Resets every sub-game, game `i` with `seeds[i]`, and writes the observations.
    #[allow(clippy::too_many_arguments)]
    fn reset(
        &mut self,
        py: Python<'_>,
        seeds: PyReadonlyArray1<'_, u64>,
        mut board: numpy::PyReadwriteArray3<'_, u8>,
        mut state: PyReadwriteArray2<'_, i32>,
        mut mask: PyReadwriteArray2<'_, i8>,
    ) -> PyResult<()> {
        let seeds = seeds.as_slice()?.to_vec();
        let n = self.games.len();
        if seeds.len() != n {
            return Err(ArgError::Length {
                name: "seeds",
                want: n,
                got: seeds.len(),
            }
            .into());
        }
        let (board, state, mask) = self.arrays(&mut board, &mut state, &mut mask)?;
        let outs = self.split(board, state, mask);
        let games = &mut self.games;
        let pool = &self.pool;
        let reset_one = |((g, o), seed): ((&mut AnyGame, Out<'_>), u64)| -> Result<(), GameError> {
            g.reset(seed)?;
            g.write(o.board, o.state, o.mask);
            Ok(())
        };
        let result: Result<(), GameError> = py.detach(|| {
            if pool.current_num_threads() == 1 {
                games
                    .iter_mut()
                    .zip(outs)
                    .zip(seeds)
                    .try_for_each(reset_one)
            } else {
                pool.install(|| {
                    games
                        .par_iter_mut()
                        .zip(outs)
                        .zip(seeds)
                        .try_for_each(reset_one)
                })
            }
        });
        result?;
        self.needs_reset.fill(false);
        Ok(())
    }

    /// Steps every sub-game with its action and writes observations, rewards and flags. The
    /// sub-games marked in `ended` (an illegal action ended their episode) are not played: they
    /// report reward 0 and terminated, and restart on the next step.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (actions, board, state, mask, reward, terminated, truncated, ended = None))]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
        mut board: numpy::PyReadwriteArray3<'_, u8>,
        mut state: PyReadwriteArray2<'_, i32>,
        mut mask: PyReadwriteArray2<'_, i8>,
        mut reward: PyReadwriteArray1<'_, f64>,
        mut terminated: PyReadwriteArray1<'_, bool>,
        mut truncated: PyReadwriteArray1<'_, bool>,
        ended: Option<PyReadonlyArray1<'_, bool>>,
    ) -> PyResult<()> {
        let n = self.games.len();
        let given = actions.as_slice()?;
        if given.len() != n {
            return Err(ArgError::BatchLength {
                name: "actions",
                want: n,
                got: given.len(),
            }
            .into());
        }
        let ended = match &ended {
            None => None,
            Some(ended) => {
                let ended = ended.as_slice()?;
                if ended.len() != n {
                    return Err(ArgError::BatchLength {
                        name: "ended",
                        want: n,
                        got: ended.len(),
                    }
                    .into());
                }
                Some(ended)
            }
        };
        // Every action is checked before any game moves, so a bad one leaves all as they were;
        // the marker below too, where a game was given it rather than marked ended.
        for (i, (g, &a)) in self.games.iter().zip(given).enumerate() {
            if !self.needs_reset[i] && !ended.is_some_and(|e| e[i]) {
                g.check(a).map_err(|e| GameError::SubEnvironment {
                    index: i,
                    source: Box::new(e),
                })?;
            }
        }
        let mut marked;
        let actions = match ended {
            None => given,
            Some(ended) => {
                // An ended game's action becomes the marker `step_one` ends it on (no other
                // game's action can be it: they were checked above).
                marked = given.to_vec();
                for (a, &end) in marked.iter_mut().zip(ended) {
                    if end {
                        *a = ENDED_BY_ILLEGAL_ACTION;
                    }
                }
                &marked[..]
            }
        };
        let reward = vec_mut(&mut reward, "reward", n)?;
        let terminated = vec_mut(&mut terminated, "terminated", n)?;
        let truncated = vec_mut(&mut truncated, "truncated", n)?;
        let (board, state, mask) = self.arrays(&mut board, &mut state, &mut mask)?;
        let outs = self.split(board, state, mask);
        // Frame games: one run of consecutive games per thread, as a frame is tens of
        // nanoseconds and finer pieces would cost more in hand-overs than they spread. Placement
        // games (a search each, some with a reset) are left to rayon's stealing.
        let min_len = if matches!(self.template, AnyGame::Frame(_)) {
            n.div_ceil(self.pool.current_num_threads())
        } else {
            1
        };
        let games = &mut self.games;
        let needs_reset = &mut self.needs_reset;
        let pool = &self.pool;
        type Item<'a, 'b> = (
            (
                (
                    (((&'a mut AnyGame, &'a mut bool), Out<'b>), &'a i64),
                    &'a mut f64,
                ),
                &'a mut bool,
            ),
            &'a mut bool,
        );
        let step_one =
            |((((((g, reset), o), &a), r), te), tr): Item<'_, '_>| -> Result<(), GameError> {
                if *reset {
                    let seed = next_episode_seed(g.seed());
                    g.reset(seed)?;
                    *reset = false;
                    *r = 0.0;
                    *te = false;
                    *tr = false;
                } else if a == ENDED_BY_ILLEGAL_ACTION {
                    *r = 0.0;
                    *te = true;
                    *tr = false;
                    *reset = true;
                } else {
                    let out = g.step(a)?;
                    *r = out.reward;
                    *te = out.terminated;
                    *tr = out.truncated;
                    *reset = out.terminated || out.truncated;
                }
                g.write(o.board, o.state, o.mask);
                Ok(())
            };
        let result: Result<(), GameError> = py.detach(|| {
            if pool.current_num_threads() == 1 {
                // One thread: step here, without waking a pool thread for every call.
                games
                    .iter_mut()
                    .zip(needs_reset.iter_mut())
                    .zip(outs)
                    .zip(actions.iter())
                    .zip(reward.iter_mut())
                    .zip(terminated.iter_mut())
                    .zip(truncated.iter_mut())
                    .try_for_each(step_one)
            } else {
                pool.install(|| {
                    games
                        .par_iter_mut()
                        .zip(needs_reset.par_iter_mut())
                        .zip(outs)
                        .zip(actions.par_iter())
                        .zip(reward.par_iter_mut())
                        .zip(terminated.par_iter_mut())
                        .zip(truncated.par_iter_mut())
                        .with_min_len(min_len)
                        .try_for_each(step_one)
                })
            }
        });
        Ok(result?)
    }

    /// The seeds of the sub-games' current episodes.
    fn seeds(&self) -> Vec<u64> {
        self.games.iter().map(AnyGame::seed).collect()
    }

    /// Writes every sub-game's afterstates (NES placement games): `features` (games × slots ×
    /// features, float32) and `actions` (games × slots, int64, -1 when empty).
    fn write_afterstates(
        &self,
        mut features: numpy::PyReadwriteArray3<'_, f32>,
        mut actions: PyReadwriteArray2<'_, i64>,
    ) -> PyResult<()> {
        let n = self.games.len();
        let shape = features.shape().to_vec();
        if shape != [n, AFTERSTATE_SLOTS, AFTERSTATE_FEATURES] {
            return Err(ArgError::Shape {
                name: "features",
                want: Dims(vec![n, AFTERSTATE_SLOTS, AFTERSTATE_FEATURES]),
                got: shape,
            }
            .into());
        }
        let features = features
            .as_slice_mut()
            .map_err(|_| ArgError::NotContiguous("features"))?;
        let actions = rows_mut(&mut actions, "actions", n, AFTERSTATE_SLOTS)?;
        for ((g, f), a) in self
            .games
            .iter()
            .zip(features.chunks_mut(AFTERSTATE_SLOTS * AFTERSTATE_FEATURES))
            .zip(actions.chunks_mut(AFTERSTATE_SLOTS))
        {
            let AnyGame::Placement(g) = g else {
                return Err(ArgError::NotPlacement("write_afterstates").into());
            };
            g.write_afterstates(f, a);
        }
        Ok(())
    }

    /// Resets now, with their next episode's seed, the sub-games that ended on the last step
    /// (instead of on the next one: same-step autoreset, as Stable-Baselines3 expects), writes
    /// their observations and returns their indices.
    fn reset_done(
        &mut self,
        py: Python<'_>,
        mut board: numpy::PyReadwriteArray3<'_, u8>,
        mut state: PyReadwriteArray2<'_, i32>,
        mut mask: PyReadwriteArray2<'_, i8>,
    ) -> PyResult<Vec<usize>> {
        let (board, state, mask) = self.arrays(&mut board, &mut state, &mut mask)?;
        let outs = self.split(board, state, mask);
        let games = &mut self.games;
        let needs_reset = &mut self.needs_reset;
        let result: Result<Vec<usize>, GameError> = py.detach(|| {
            let mut done = Vec::new();
            for (i, ((g, reset), o)) in games
                .iter_mut()
                .zip(needs_reset.iter_mut())
                .zip(outs)
                .enumerate()
            {
                if *reset {
                    g.reset(next_episode_seed(g.seed()))?;
                    *reset = false;
                    g.write(o.board, o.state, o.mask);
                    done.push(i);
                }
            }
            Ok(done)
        });
        Ok(result?)
    }

    /// The seed of sub-game `index` when the vector is reset with `seed`.
    #[staticmethod]
    fn sub_seed(seed: u64, index: usize) -> u64 {
        vector_seed(seed, index)
    }
}

impl VectorCore {
    /// The batched arrays as slices, after checking their shapes.
    fn arrays<'a>(
        &self,
        board: &'a mut numpy::PyReadwriteArray3<'_, u8>,
        state: &'a mut PyReadwriteArray2<'_, i32>,
        mask: &'a mut PyReadwriteArray2<'_, i8>,
    ) -> PyResult<(&'a mut [u8], &'a mut [i32], &'a mut [i8])> {
        let n = self.games.len();
        let (r, c) = self.template.board_shape();
        let board = boards_mut(board, n, r, c)?;
        let state = rows_mut(state, "state", n, self.template.state_len())?;
        let m = if self.template.masked() {
            self.template.num_actions()
        } else {
            0
        };
        let mask = rows_mut(mask, "mask", n, m)?;
        Ok((board, state, mask))
    }
}

/// The most threads a vector environment starts (the command line's `--threads` bound): far
/// more than any machine's cores, few enough that a mistyped count fails instead of hanging.
pub const MAX_THREADS: usize = 256;

/// The action `VectorCore.step` gives the sub-games whose episode an illegal action ended.
const ENDED_BY_ILLEGAL_ACTION: i64 = i64::MIN;

/// The threads of a vector environment: `num_threads`, or one per core (at most
/// [`MAX_THREADS`]).
fn thread_count(num_threads: Option<usize>) -> PyResult<usize> {
    match num_threads {
        Some(t) if (1..=MAX_THREADS).contains(&t) => Ok(t),
        Some(t) => Err(ArgError::ThreadCount(t).into()),
        None => {
            Ok(std::thread::available_parallelism().map_or(1, |n| usize::from(n).min(MAX_THREADS)))
        }
    }
}

/// N frame games (`NesTetrisFrames-v0`) stepped together, one run of consecutive games per
/// thread, writing into batched numpy arrays (the same methods as `VectorCore`). Sub-games that
/// ended are reset on the next step (Gymnasium's next-step autoreset): their action is ignored
/// and they report reward 0, not terminated, not truncated.
#[pyclass(module = "playfield._playfield")]
pub struct FrameVectorCore {
    vector: FrameVector,
    num_envs: usize,
}

#[pymethods]
impl FrameVectorCore {
    /// `num_envs` copies of `template`'s frame game, stepped on `num_threads` threads (default:
    /// one per core; the calling thread is one of them).
    #[new]
    #[pyo3(signature = (template, num_envs, num_threads = None))]
    fn new(template: &EnvCore, num_envs: usize, num_threads: Option<usize>) -> PyResult<Self> {
        if num_envs == 0 {
            return Err(ArgError::Zero("num_envs").into());
        }
        let AnyGame::Frame(game) = &template.game else {
            return Err(ArgError::NotFrames.into());
        };
        let threads = thread_count(num_threads)?;
        let vector =
            FrameVector::new(game.settings.clone(), num_envs, threads).map_err(ArgError::from)?;
        Ok(FrameVectorCore { vector, num_envs })
    }

    /// Threads stepping the games.
    #[getter]
    fn num_threads(&self) -> usize {
        self.vector.threads()
    }

    /// Resets every sub-game, game `i` with `seeds[i]`, and writes the observations.
    fn reset(
        &mut self,
        py: Python<'_>,
        seeds: PyReadonlyArray1<'_, u64>,
        mut board: numpy::PyReadwriteArray3<'_, u8>,
        mut state: PyReadwriteArray2<'_, i32>,
    ) -> PyResult<()> {
        let n = self.num_envs;
        let seeds = seeds.as_slice()?;
        if seeds.len() != n {
            return Err(ArgError::Length {
                name: "seeds",
                want: n,
                got: seeds.len(),
            }
            .into());
        }
        let (board, state) = self.arrays(&mut board, &mut state)?;
        let vector = &mut self.vector;
        let out = Outputs {
            board,
            state,
            reward: &mut [],
            terminated: &mut [],
            truncated: &mut [],
        };
        Ok(py.detach(|| vector.reset(seeds, out))?)
    }

    /// Steps every sub-game one frame with its action (a buttons byte) and writes observations,
    /// rewards and flags.
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
        mut board: numpy::PyReadwriteArray3<'_, u8>,
        mut state: PyReadwriteArray2<'_, i32>,
        mut reward: PyReadwriteArray1<'_, f64>,
        mut terminated: PyReadwriteArray1<'_, bool>,
        mut truncated: PyReadwriteArray1<'_, bool>,
    ) -> PyResult<()> {
        let n = self.num_envs;
        let actions = actions.as_slice()?;
        if actions.len() != n {
            return Err(ArgError::BatchLength {
                name: "actions",
                want: n,
                got: actions.len(),
            }
            .into());
        }
        let reward = vec_mut(&mut reward, "reward", n)?;
        let terminated = vec_mut(&mut terminated, "terminated", n)?;
        let truncated = vec_mut(&mut truncated, "truncated", n)?;
        let (board, state) = self.arrays(&mut board, &mut state)?;
        let vector = &mut self.vector;
        let out = Outputs {
            board,
            state,
            reward,
            terminated,
            truncated,
        };
        Ok(py.detach(|| vector.step(actions, 1, out))?)
    }

    /// Steps every sub-game `K` frames in one call: sub-game `i` plays `actions[k, i]` at frame
    /// `k` (as `K` calls of `step`, autoresets included; every action must be a buttons byte).
    /// Writes the observations after the last frame, and each frame's rewards and flags into
    /// row `k` of `reward`, `terminated` and `truncated` (K × num_envs).
    #[allow(clippy::too_many_arguments)]
    fn step_frames(
        &mut self,
        py: Python<'_>,
        actions: numpy::PyReadonlyArray2<'_, i64>,
        mut board: numpy::PyReadwriteArray3<'_, u8>,
        mut state: PyReadwriteArray2<'_, i32>,
        mut reward: PyReadwriteArray2<'_, f64>,
        mut terminated: PyReadwriteArray2<'_, bool>,
        mut truncated: PyReadwriteArray2<'_, bool>,
    ) -> PyResult<()> {
        let n = self.num_envs;
        let shape = actions.shape().to_vec();
        let frames = shape.first().copied().unwrap_or(0);
        if frames == 0 || shape != [frames, n] {
            return Err(ArgError::Shape {
                name: "actions",
                want: Dims(vec![frames.max(1), n]),
                got: shape,
            }
            .into());
        }
        let actions = actions
            .as_slice()
            .map_err(|_| ArgError::NotContiguous("actions"))?;
        let reward = rows_mut(&mut reward, "reward", frames, n)?;
        let terminated = rows_mut(&mut terminated, "terminated", frames, n)?;
        let truncated = rows_mut(&mut truncated, "truncated", frames, n)?;
        let (board, state) = self.arrays(&mut board, &mut state)?;
        let vector = &mut self.vector;
        let out = Outputs {
            board,
            state,
            reward,
            terminated,
            truncated,
        };
        Ok(py.detach(|| vector.step(actions, frames, out))?)
    }

    /// The seeds of the sub-games' current episodes.
    fn seeds(&self) -> Vec<u64> {
        self.vector.seeds()
    }

    /// Resets now the sub-games that ended on the last step (see `VectorCore.reset_done`),
    /// writes their observations and returns their indices.
    fn reset_done(
        &mut self,
        mut board: numpy::PyReadwriteArray3<'_, u8>,
        mut state: PyReadwriteArray2<'_, i32>,
    ) -> PyResult<Vec<usize>> {
        let (board, state) = self.arrays(&mut board, &mut state)?;
        Ok(self.vector.reset_done(board, state)?)
    }

    /// The seed of sub-game `index` when the vector is reset with `seed`.
    #[staticmethod]
    fn sub_seed(seed: u64, index: usize) -> u64 {
        vector_seed(seed, index)
    }
}

impl FrameVectorCore {
    /// The board and state arrays as slices, after checking their shapes.
    fn arrays<'a>(
        &self,
        board: &'a mut numpy::PyReadwriteArray3<'_, u8>,
        state: &'a mut PyReadwriteArray2<'_, i32>,
    ) -> PyResult<(&'a mut [u8], &'a mut [i32])> {
        let n = self.num_envs;
        let board = boards_mut(board, n, ROWS, COLS)?;
        let state = rows_mut(state, "state", n, NES_STATE_LEN)?;
        Ok((board, state))
    }
}
