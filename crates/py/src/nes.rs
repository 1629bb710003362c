//! `playfield.nes`: the engine, the AI players and whole AI games.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use playfield_ai::nes::game::play_game_with_rom;
use playfield_ai::nes::game::{GameEnd, game_seed};
use playfield_ai::nes::{Decision, GameConfig, InputModel, Player, Situation, Weights, Workspace};
use playfield_ai::nes::{PieceState, players};
use playfield_nes::fm2::Movie;
use playfield_nes::{Buttons, Events, GameMode, GameType, Nes, Region};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::args;
use crate::error::ArgError;
use crate::game::{BOARD_CELLS, COLS, NES_STATE_LEN, ROWS, write_board, write_state};
use crate::rom::{GivenRom, given_rom};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyNes>()?;
    m.add_class::<PyNesState>()?;
    m.add_class::<PyPlayer>()?;
    m.add_class::<PyDecision>()?;
    m.add_function(wrap_pyfunction!(play_nes_game, m)?)?;
    m.add_function(wrap_pyfunction!(nes_game_seed, m)?)?;
    m.add_function(wrap_pyfunction!(orientation_minos, m)?)?;
    m.add_function(wrap_pyfunction!(level_colors, m)?)?;
    let registry: Vec<(&str, &str)> = players::PLAYERS
        .iter()
        .map(|p| (p.name, p.description))
        .collect();
    m.add("PLAYERS", registry)?;
    m.add("NES_STATE_LEN", NES_STATE_LEN)?;
    Ok(())
}

/// The four minos of each orientation id 0-18 (`orientationTable`): (row offset, column
/// offset) from `tetriminoY`, `tetriminoX`, and the tile kind 1-3 (which of the level's colours).
#[pyfunction]
fn orientation_minos() -> Vec<Vec<(i8, i8, u8)>> {
    use playfield_nes::tables::{ORIENTATIONS, TILE1, TILE2};
    ORIENTATIONS[..19]
        .iter()
        .map(|minos| {
            minos
                .iter()
                .map(|m| {
                    let kind = match m.tile {
                        TILE1 => 1,
                        TILE2 => 2,
                        _ => 3,
                    };
                    (m.dy, m.dx, kind)
                })
                .collect()
        })
        .collect()
}

/// The four RGB colours of the playfield at `level` (`colorTable` through the NES palette):
/// background, then the colours of tile kinds 1-3.
#[pyfunction]
fn level_colors(#[pyo3(from_py_with = args::any_level)] level: u8) -> [[u8; 3]; 4] {
    playfield_nes::palette::level_palette(level).map(playfield_nes::palette::nes_rgb)
}

/// The events of a frame as bits (`playfield.nes.EVENT_*`).
fn event_bits(e: Events) -> u16 {
    e.flags().bits()
}

/// Reads buttons from a 1-D uint8 numpy array, bytes or a bytearray.
fn buttons_arg(buttons: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(a) = buttons.cast::<PyArray1<u8>>() {
        return Ok(a.readonly().as_array().to_vec());
    }
    if let Ok(b) = buttons.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(a) = buttons.extract::<PyReadonlyArray1<'_, u8>>() {
        return Ok(a.as_array().to_vec());
    }
    let shape = buttons
        .getattr("shape")
        .map(|s| s.to_string())
        .unwrap_or_default();
    let dtype = buttons
        .getattr("dtype")
        .map(|s| s.to_string())
        .unwrap_or_default();
    let kind = buttons.get_type().name()?.to_string();
    Err(ArgError::ButtonsType { kind, shape, dtype }.into())
}

/// NES Tetris (USA), frame-exact: the engine of `playfield-nes`.
///
/// Buttons are one byte per frame in the ROM's bit layout: Right 1, Left 2, Down 4, Up 8,
/// Start 16, Select 32, B 64, A 128.
#[pyclass(module = "playfield._playfield", name = "Nes")]
#[derive(Clone)]
pub struct PyNes {
    pub(crate) nes: Nes,
    /// Every frame's buttons since power-on, kept for pickling (replayed exactly); `None` once
    /// the engine was built from a RAM image, which has no history.
    history: Option<Vec<u8>>,
    pal: bool,
    /// The ROM the engine runs the lag model on, kept with its path for pickling; `None`: lag
    /// and crashes are not modelled.
    rom: Option<GivenRom>,
}

/// A saved engine state (`Nes.save()`), restored with `Nes.restore(state)`.
#[pyclass(module = "playfield._playfield", name = "NesState")]
#[derive(Clone)]
pub struct PyNesState {
    nes: PyNes,
}

impl PyNes {
    /// The engine of an environment's game, with its history.
    pub(crate) fn from_recorded(g: &crate::game::Recorded, rom: Option<&GivenRom>) -> Self {
        PyNes {
            nes: g.nes.clone(),
            history: Some(g.history.clone()),
            pal: false,
            rom: rom.cloned(),
        }
    }

    /// Powers on with `rom` (see [`given_rom`]).
    fn power_on(pal: bool, rom: Option<GivenRom>) -> Self {
        let region = if pal { Region::Pal } else { Region::Ntsc };
        let mut nes = Nes::power_on_region(region);
        crate::rom::give(rom.as_ref(), &mut nes);
        PyNes {
            nes,
            history: Some(Vec::new()),
            pal,
            rom,
        }
    }

    /// The `rom` argument that reads this engine's ROM again ("" for none).
    fn rom_path(&self) -> &str {
        self.rom.as_ref().map_or("", |r| r.path.as_str())
    }
}

#[pymethods]
impl PyNesState {
    /// The frame the state was saved at.
    #[getter]
    fn frame(&self) -> u64 {
        self.nes.nes.frame()
    }

    /// Equal when the engines are in the same state (RAM, registers the model keeps, frame).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyNesState>()
            .is_ok_and(|o| o.borrow().nes.nes == self.nes.nes)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.nes.nes.hash(&mut h);
        h.finish()
    }

    /// Pickles as its engine (which replays its buttons from power-on, exact).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let py = slf.py();
        let nes = slf.borrow().nes.clone();
        Ok((
            slf.get_type().getattr("_of")?,
            (nes,).into_pyobject(py)?.into_any(),
        ))
    }

    /// The state of an engine (used by pickle).
    #[staticmethod]
    fn _of(nes: PyRef<'_, PyNes>) -> Self {
        PyNesState { nes: nes.clone() }
    }

    fn __repr__(&self) -> String {
        format!("NesState(frame={})", self.nes.nes.frame())
    }
}

#[pymethods]
impl PyNes {
    /// Powers on the console. `pal=True` runs PAL timing (not checkable against a ROM here).
    /// `rom`: the path of Tetris (USA) (SHA-1 checked), whose program the lag model runs from
    /// level 100 (default: `$PLAYFIELD_ROM` when set; `""` for none). Without it lag frames and
    /// crashes are not modelled (`lag_modelled()` is false).
    #[new]
    #[pyo3(signature = (pal = false, rom = None))]
    fn new(#[pyo3(from_py_with = args::pal)] pal: bool, rom: Option<&str>) -> PyResult<Self> {
        Ok(PyNes::power_on(pal, given_rom(rom)?))
    }

    /// Whether the engine models lag frames and crashes: it has the ROM's program, runs NTSC
    /// timing, and knows the sound driver's state where the lag model needs it.
    fn lag_modelled(&self) -> bool {
        self.nes.lag_modelled()
    }

    /// Replays an FCEUX movie (.fm2) from power-on: `path` is a file path, or the movie's text
    /// with `text=True`. Soft-reset and power commands in the movie are honoured.
    #[staticmethod]
    #[pyo3(signature = (path, text = false, rom = None))]
    fn from_fm2(
        path: &str,
        #[pyo3(from_py_with = args::text)] text: bool,
        rom: Option<&str>,
    ) -> PyResult<Self> {
        let rom = given_rom(rom)?;
        let body = if text {
            path.to_owned()
        } else {
            std::fs::read_to_string(path).map_err(|source| ArgError::Read {
                path: path.to_owned(),
                source,
            })?
        };
        let name = if text { "(text)" } else { path };
        let movie = Movie::parse(&body).map_err(|source| ArgError::Movie {
            name: name.to_owned(),
            source,
        })?;
        let pal = movie.pal();
        let region = if pal { Region::Pal } else { Region::Ntsc };
        let mut nes = Nes::power_on_region(region);
        crate::rom::give(rom.as_ref(), &mut nes);
        let mut plain = true;
        for line in &movie.lines {
            if line.command != playfield_nes::fm2::Command::NONE {
                plain = false;
            }
            nes.step_line(line);
        }
        let history = plain.then(|| movie.buttons().map(|b| b.bits()).collect());
        Ok(PyNes {
            nes,
            history,
            pal,
            rom,
        })
    }

    /// The frames since power-on as an FCEUX movie (.fm2 text) that replays this state on the
    /// ROM; not available for engines built from a RAM image or a movie with reset commands.
    fn to_fm2(&self) -> PyResult<String> {
        let history = self.history.as_ref().ok_or(ArgError::NoHistory)?;
        Ok(Movie::new(history.iter().map(|&b| Buttons::from_bits_retain(b))).to_fm2())
    }

    /// An engine from a 2 KiB RAM image taken at a frame boundary (menus or play).
    #[staticmethod]
    #[pyo3(signature = (ram, pal = false, rom = None))]
    fn from_ram(
        ram: &[u8],
        #[pyo3(from_py_with = args::pal)] pal: bool,
        rom: Option<&str>,
    ) -> PyResult<Self> {
        let image: &[u8; 0x800] = ram.try_into().map_err(|_| ArgError::RamSize(ram.len()))?;
        let region = if pal { Region::Pal } else { Region::Ntsc };
        let rom = given_rom(rom)?;
        let mut nes = Nes::from_ram(image, region).map_err(ArgError::from)?;
        crate::rom::give(rom.as_ref(), &mut nes);
        Ok(PyNes {
            nes,
            history: None,
            pal,
            rom,
        })
    }

    /// Runs one frame with `buttons` (0-255); returns the frame's events as bits.
    fn step(&mut self, #[pyo3(from_py_with = args::buttons)] b: u8) -> PyResult<u16> {
        if let Some(h) = self.history.as_mut() {
            h.push(b);
        }
        Ok(event_bits(self.nes.step(Buttons::from_bits_retain(b))))
    }

    /// Runs one frame per element of `buttons` (a 1-D uint8 numpy array or bytes); returns the
    /// union of the frames' events as bits. Stops early if the engine stops (see `unsupported`).
    fn step_many(&mut self, py: Python<'_>, buttons: &Bound<'_, PyAny>) -> PyResult<u16> {
        let frames = buttons_arg(buttons)?;
        let nes = &mut self.nes;
        let (bits, stepped) = py.detach(|| {
            let mut bits = 0u16;
            let mut stepped = 0;
            for &b in &frames {
                if nes.unsupported().is_some() {
                    break;
                }
                bits |= event_bits(nes.step(Buttons::from_bits_retain(b)));
                stepped += 1;
            }
            (bits, stepped)
        });
        if let Some(h) = self.history.as_mut() {
            h.extend_from_slice(&frames[..stepped]);
        }
        Ok(bits)
    }

    /// Frames since power-on.
    #[getter]
    fn frame(&self) -> u64 {
        self.nes.frame()
    }

    /// Why the engine stopped (a state it does not model), or None.
    #[getter]
    fn unsupported(&self) -> Option<String> {
        self.nes.unsupported().map(|why| why.to_string())
    }

    /// The score (decimal).
    #[getter]
    fn score(&self) -> u32 {
        self.nes.score()
    }

    /// Lines as the game shows them (decimal; past 999 the hundreds digit shows letters).
    #[getter]
    fn lines(&self) -> u32 {
        self.nes.lines()
    }

    /// Lines cleared, counted as the level-ups count them past 999 too (the environments'
    /// `lines`, rewards and line caps use it).
    #[getter]
    fn line_count(&self) -> u32 {
        self.nes.line_count()
    }

    /// `levelNumber`.
    #[getter]
    fn level(&self) -> u8 {
        self.nes.level()
    }

    /// `gameMode` (0 legal, 1 title, 2 game-type menu, 3 level menu, 4 play, 5 demo, 6 start demo).
    #[getter]
    fn game_mode(&self) -> u8 {
        self.nes.game_mode().to_raw()
    }

    /// `playState` (1 active piece, 2 lock, 3 check rows, 4 line-clear animation, 5 update lines,
    /// 6 B-type goal check, 7 receive garbage, 8 spawn, 10 curtain, 0 game over).
    #[getter]
    fn play_state(&self) -> u8 {
        self.nes.play_state().to_raw()
    }

    /// `gameType` (0 A-type, 1 B-type).
    #[getter]
    fn game_type(&self) -> u8 {
        self.nes.game_type().to_raw()
    }

    /// Whether the next frame runs the player's controls for the active piece.
    #[getter]
    fn controllable(&self) -> bool {
        self.nes.controllable()
    }

    /// The active piece as (piece, orientation, x, y): piece 0-6 = T J Z O S L I, orientation
    /// the ROM's id 0-18; None outside play or when hidden.
    #[getter]
    fn piece(&self) -> Option<(u8, u8, u8, u8)> {
        let p = self.nes.last_piece()?;
        (self.nes.game_mode() == GameMode::Play).then_some((
            p.piece().index() as u8,
            p.orientation.id(),
            p.x,
            p.y,
        ))
    }

    /// The preview piece 0-6 (T J Z O S L I), None outside play.
    #[getter]
    fn next_piece(&self) -> Option<u8> {
        if self.nes.game_mode() != GameMode::Play {
            return None;
        }
        self.nes.next_piece().map(|piece| piece.index() as u8)
    }

    /// The board, a 20×10 uint8 array: 1 where a block is (the active piece is not on it).
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let mut cells = vec![0u8; BOARD_CELLS];
        write_board(&self.nes, &mut cells);
        PyArray1::from_vec(py, cells).reshape([ROWS, COLS])
    }

    /// The playfield's 200 tiles as the ROM stores them (0xEF empty).
    fn tiles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        PyArray1::from_slice(py, &self.nes.playfield_page()[..BOARD_CELLS]).reshape([ROWS, COLS])
    }

    /// The state vector of the environments (int32, fields `playfield.envs.NES_STATE_FIELDS`).
    fn state_vector<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        let mut s = [0i32; NES_STATE_LEN];
        write_state(&self.nes, false, &mut s);
        PyArray1::from_slice(py, &s)
    }

    /// The console's 2 KiB of RAM with every modelled variable at its address.
    fn ram<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.nes.ram())
    }

    /// A copy of the whole engine state.
    fn save(&self) -> PyNesState {
        PyNesState { nes: self.clone() }
    }

    /// Returns to a saved state (saved by any engine with the same ROM or none).
    fn restore(&mut self, state: &PyNesState) {
        *self = state.nes.clone();
    }

    /// A copy.
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// Pickling replays the buttons from power-on (exact). Engines built from a RAM image have
    /// no history: they pickle as their RAM image.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let py = slf.py();
        let this = slf.borrow();
        let cls = slf.get_type();
        match &this.history {
            Some(h) => Ok((
                cls.getattr("_from_history")?,
                (PyBytes::new(py, h), this.pal, this.rom_path())
                    .into_pyobject(py)?
                    .into_any(),
            )),
            None => Ok((
                cls.getattr("from_ram")?,
                (PyBytes::new(py, &this.nes.ram()), this.pal, this.rom_path())
                    .into_pyobject(py)?
                    .into_any(),
            )),
        }
    }

    /// Replays `history` from power-on (used by pickle).
    #[staticmethod]
    #[pyo3(signature = (history, pal = false, rom = ""))]
    fn _from_history(history: &[u8], pal: bool, rom: &str) -> PyResult<Self> {
        let mut n = PyNes::power_on(pal, given_rom(Some(rom))?);
        for &b in history {
            n.nes.step(Buttons::from_bits_retain(b));
        }
        n.history = Some(history.to_vec());
        Ok(n)
    }

    fn __repr__(&self) -> String {
        format!(
            "Nes(frame={}, game_mode={}, score={}, lines={}, level={})",
            self.nes.frame(),
            self.nes.game_mode().to_raw(),
            self.score(),
            self.lines(),
            self.level()
        )
    }
}

/// A move chosen by a player: where the piece locks and the buttons of every frame to get there.
#[pyclass(module = "playfield._playfield", name = "Decision", frozen)]
#[derive(Clone)]
pub struct PyDecision {
    /// `tetriminoX` at lock.
    #[pyo3(get)]
    x: u8,
    /// `tetriminoY` at lock.
    #[pyo3(get)]
    y: u8,
    /// Orientation id at lock.
    #[pyo3(get)]
    orientation: u8,
    /// The evaluator's cost (lower is better).
    #[pyo3(get)]
    cost: f64,
    /// Frames from the decision to the lock.
    #[pyo3(get)]
    frames: u32,
    inputs: Vec<u8>,
}

impl PyDecision {
    fn from_decision(d: &Decision) -> Self {
        PyDecision {
            x: d.placement.x,
            y: d.placement.y,
            orientation: d.placement.orientation,
            cost: d.cost,
            frames: d.placement.frames,
            inputs: d.inputs.iter().map(|b| b.bits()).collect(),
        }
    }
}

#[pymethods]
impl PyDecision {
    /// The buttons of each frame, a uint8 array (the last frame is the one that locks).
    #[getter]
    fn inputs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        PyArray1::from_slice(py, &self.inputs)
    }

    /// The placement's action in `playfield/NesTetris-v0`.
    #[getter]
    fn action(&self) -> usize {
        (usize::from(self.orientation) * ROWS + usize::from(self.y)) * COLS + usize::from(self.x)
    }

    fn __repr__(&self) -> String {
        format!(
            "Decision(x={}, y={}, orientation={}, cost={}, frames={})",
            self.x, self.y, self.orientation, self.cost, self.frames
        )
    }
}

/// Builds an input model, as a Python `ValueError` when bad.
pub fn input_model(input: &str, das: bool, reaction: u32) -> PyResult<InputModel> {
    Ok(InputModel::new(input, das, reaction).map_err(ArgError::from)?)
}

/// An AI player for NES Tetris: evaluator weights, lookahead and input model.
#[pyclass(module = "playfield._playfield", name = "Player")]
pub struct PyPlayer {
    player: Player,
    workspace: Workspace,
}

#[pymethods]
impl PyPlayer {
    /// A player with Birken's evaluator: `weights` is a dict of the six feature weights
    /// (lines_cleared, lock_height, well_cells, column_holes, column_transitions,
    /// row_transitions); missing ones keep Birken's values.
    #[new]
    #[pyo3(signature = (weights = None, lookahead = 2, input = "X.", das = true, reaction = 0, name = "custom"))]
    fn new(
        weights: Option<&Bound<'_, PyDict>>,
        #[pyo3(from_py_with = args::lookahead)] lookahead: u8,
        input: &str,
        #[pyo3(from_py_with = args::das)] das: bool,
        #[pyo3(from_py_with = args::reaction)] reaction: u32,
        name: &str,
    ) -> PyResult<Self> {
        let mut w = Weights::BIRKEN;
        if let Some(d) = weights {
            for (k, v) in d.iter() {
                let key: String = k.extract()?;
                let value: f64 = v.extract()?;
                let slot = match key.as_str() {
                    "lines_cleared" => &mut w.lines_cleared,
                    "lock_height" => &mut w.lock_height,
                    "well_cells" => &mut w.well_cells,
                    "column_holes" => &mut w.column_holes,
                    "column_transitions" => &mut w.column_transitions,
                    "row_transitions" => &mut w.row_transitions,
                    _ => return Err(ArgError::UnknownWeight(key).into()),
                };
                if !value.is_finite() {
                    // A NaN or infinite weight makes every evaluation compare false or equal.
                    return Err(ArgError::WeightNotFinite { name: key, value }.into());
                }
                *slot = value;
            }
        }
        Ok(PyPlayer {
            player: Player {
                name: name.to_owned(),
                evaluator: playfield_ai::nes::Evaluator::Birken(w),
                lookahead,
                input: input_model(input, das, reaction)?,
            },
            workspace: Workspace::new(),
        })
    }

    /// The registry's player `name` (`playfield.nes.PLAYERS`: the command line's `--player`
    /// names, the default first). The input model's defaults are the environments' (`X.`, DAS,
    /// soft drop, reaction 0).
    #[staticmethod]
    #[pyo3(signature = (name, input = "X.", das = true, reaction = 0, soft_drop = true))]
    fn by_name(
        name: &str,
        input: &str,
        #[pyo3(from_py_with = args::das)] das: bool,
        #[pyo3(from_py_with = args::reaction)] reaction: u32,
        #[pyo3(from_py_with = args::soft_drop)] soft_drop: bool,
    ) -> PyResult<Self> {
        let mut model = input_model(input, das, reaction)?;
        model.soft_drop = soft_drop;
        Ok(PyPlayer {
            player: players::by_name(name, model).map_err(ArgError::from)?,
            workspace: Workspace::new(),
        })
    }

    /// Birken's AI: his six features and weights, exhaustive two-piece lookahead
    /// (`by_name("birken", ...)`).
    #[staticmethod]
    #[pyo3(signature = (input = "X.", das = true, reaction = 0, soft_drop = true))]
    fn birken(
        input: &str,
        #[pyo3(from_py_with = args::das)] das: bool,
        #[pyo3(from_py_with = args::reaction)] reaction: u32,
        #[pyo3(from_py_with = args::soft_drop)] soft_drop: bool,
    ) -> PyResult<Self> {
        Self::by_name("birken", input, das, reaction, soft_drop)
    }

    /// The shipped score player (the command line's `--player score`, the default): its tuned
    /// weights, two-piece lookahead (`by_name("score", ...)`).
    #[staticmethod]
    #[pyo3(signature = (input = "X.", das = true, reaction = 0, soft_drop = true))]
    fn score(
        input: &str,
        #[pyo3(from_py_with = args::das)] das: bool,
        #[pyo3(from_py_with = args::reaction)] reaction: u32,
        #[pyo3(from_py_with = args::soft_drop)] soft_drop: bool,
    ) -> PyResult<Self> {
        Self::by_name("score", input, das, reaction, soft_drop)
    }

    /// The player's name.
    #[getter]
    fn name(&self) -> &str {
        &self.player.name
    }

    /// The best move for the active piece of `nes` (which must be under control), searched from
    /// its exact state; `frame` is how many frames the piece has been under control (the input
    /// timeline's clock); the preview piece is used when `next_known`. None when the piece has
    /// nowhere to lock. `line_cap` is the game's line cap if it has one (the score player
    /// cashes in before it, as in the benchmark's capped games).
    #[pyo3(signature = (nes, frame = 0, next_known = true, line_cap = None))]
    fn best(
        &mut self,
        py: Python<'_>,
        nes: &PyNes,
        #[pyo3(from_py_with = args::frame)] frame: u32,
        #[pyo3(from_py_with = args::next_known)] next_known: bool,
        #[pyo3(from_py_with = args::line_cap)] line_cap: Option<u32>,
    ) -> PyResult<Option<PyDecision>> {
        let n = &nes.nes;
        if !n.controllable() {
            return Err(ArgError::NotControllable.into());
        }
        let situation = Situation {
            level: n.level(),
            lines: n.line_count(),
            game_type: n.game_type(),
            double_speed_level: n.modifiers().double_speed_level,
            line_cap,
            unsafe_clears: 0,
            score_maxed: false,
        };
        let Some(start) = PieceState::from_nes(n, frame) else {
            return Err(ArgError::NotControllable.into());
        };
        let next = if next_known { n.next_piece() } else { None };
        let board = n.board();
        let (player, ws) = (&self.player, &mut self.workspace);
        let d = py.detach(|| player.decide(ws, &board, start, situation, next));
        Ok(d.as_ref().map(PyDecision::from_decision))
    }

    fn __repr__(&self) -> String {
        format!(
            "Player(name={:?}, lookahead={}, input={:?}, das={}, reaction={})",
            self.player.name,
            self.player.lookahead,
            self.player.input.timeline_string(),
            self.player.input.das,
            self.player.input.reaction
        )
    }
}

/// The seed of game `index` of a benchmark run with `run_seed` (the command line's derivation).
#[pyfunction]
fn nes_game_seed(
    #[pyo3(from_py_with = args::run_seed)] run_seed: u64,
    #[pyo3(from_py_with = args::index)] index: u32,
) -> u64 {
    game_seed(run_seed, u64::from(index))
}

/// Plays one whole AI game from power-on with `player` (a name of the registry: `score`, the
/// default, or `birken`), as `playfield nes bench --player NAME` does for one game with this
/// `seed` (already derived per game; past the ROM's 999,999 the score player plays to survive,
/// as there); returns a dict with score, lines,
/// level, frames, pieces and end (the JSON text of the end reason, as the command line prints it),
/// and lag_modelled: whether `rom` (a path, default `$PLAYFIELD_ROM` when set, `""` for none)
/// gave the engine the program its lag model runs (a game can then end in a crash).
#[pyfunction]
#[pyo3(signature = (seed, level = 18, game_type = 0, height = 0, music = 3, input = "X.", das = true, reaction = 18, max_lines = None, max_frames = None, index = 0, rom = None, player = "score"))]
#[allow(clippy::too_many_arguments)]
fn play_nes_game<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = args::seed)] seed: u64,
    #[pyo3(from_py_with = args::start_level)] level: u8,
    #[pyo3(from_py_with = args::game_type)] game_type: u8,
    #[pyo3(from_py_with = args::height)] height: u8,
    #[pyo3(from_py_with = args::music)] music: u8,
    input: &str,
    #[pyo3(from_py_with = args::das)] das: bool,
    #[pyo3(from_py_with = args::reaction)] reaction: u32,
    #[pyo3(from_py_with = args::max_lines)] max_lines: Option<u32>,
    #[pyo3(from_py_with = args::max_frames)] max_frames: Option<u64>,
    #[pyo3(from_py_with = args::index)] index: u32,
    rom: Option<&str>,
    player: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let program = given_rom(rom)?.map(|r| r.data.program);
    let lag_modelled = program.is_some();
    if game_type > 1 {
        return Err(ArgError::GameType(game_type).into());
    }
    let config = GameConfig {
        game_type: GameType::from_raw(game_type),
        level,
        height,
        music,
        seed,
        max_lines,
        max_frames,
        stop_at_max_score: false,
        double_speed_level: None,
        held_out: false,
        survive_at_max_score: true,
    };
    config.validate().map_err(ArgError::from)?;
    let player =
        players::by_name(player, input_model(input, das, reaction)?).map_err(ArgError::from)?;
    let r = py.detach(|| play_game_with_rom(&config, &player, program, |_, _| Ok(())));
    let end = serde_json::to_string(&r.end).map_err(|source| ArgError::Json {
        what: "the end reason",
        source,
    })?;
    let d = PyDict::new(py);
    // The game's record exactly as `playfield nes bench` prints it (JSON and text).
    let summary = playfield_ai::nes::bench::GameSummary::new(u64::from(index), seed, &r);
    d.set_item(
        "json",
        serde_json::to_string(&summary).map_err(|source| ArgError::Json {
            what: "the game",
            source,
        })?,
    )?;
    d.set_item("text", summary.to_string())?;
    d.set_item("seed", seed)?;
    d.set_item("score", r.score)?;
    d.set_item("lines", r.lines)?;
    d.set_item("level", r.level)?;
    d.set_item("frames", r.frames)?;
    d.set_item("pieces", r.pieces)?;
    d.set_item("end", end)?;
    d.set_item("lag_modelled", lag_modelled)?;
    // Frames that crash on some consoles but not all: the game went on as where it survives.
    d.set_item("crash_risk_frames", r.crash_risk.frames)?;
    d.set_item("crash_risk_most_phases", r.crash_risk.most_phases)?;
    d.set_item("level_wrapped", r.level_wrapped)?;
    d.set_item(
        "clean",
        !matches!(r.end, GameEnd::Mismatch(_) | GameEnd::Stopped(_)),
    )?;
    Ok(d)
}
