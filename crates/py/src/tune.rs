//! A tuning run of `playfield nes tune` driven from Python, so that its work can fan out over
//! Ray workers (`python -m playfield.distributed tune`): the run is opened from its checkpoint,
//! each generation is planned here, every (player, task) value is measured wherever the driver
//! sends it (`evaluate`, the same library call as the command line's), and the values come back
//! to be concluded in order. The checkpoint written is the command line's, so either can resume
//! a run the other began, and the values, being the same calls on the same seeds, make the same
//! run.

use playfield_ai::nes::ScoreWeights;
use playfield_ai::nes::bench::BenchOptions;
use playfield_ai::nes::tune::{Checkpoint, Objective, Plan, conclude, evaluate, open_run, plan};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Registers the class.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TuneRun>()
}

/// A tuning run opened from a checkpoint's text (see the module comment).
#[pyclass(module = "playfield._playfield")]
pub struct TuneRun {
    checkpoint: Checkpoint,
    options: BenchOptions,
    objective: Objective,
    pending: Option<Plan>,
}

fn weights_text(w: &ScoreWeights) -> PyResult<String> {
    serde_json::to_string(w).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

#[pymethods]
impl TuneRun {
    /// Opens the run of a checkpoint's JSON `text` (`what` names it in errors); its position
    /// file is read from the path the checkpoint names and checked against its hash.
    #[new]
    #[pyo3(signature = (text, what = "checkpoint"))]
    fn new(py: Python<'_>, text: &str, what: &str) -> PyResult<Self> {
        let (checkpoint, options, objective) = py
            .detach(|| open_run(text, what))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(TuneRun {
            checkpoint,
            options,
            objective,
            pending: None,
        })
    }

    /// Records a command line that continued the run (the checkpoint's `made_by`).
    fn add_command(&mut self, command: String) {
        self.checkpoint.made_by.push(command);
    }

    /// Generations concluded so far.
    #[getter]
    fn generation(&self) -> u32 {
        self.checkpoint.es.generation
    }

    /// The run's seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.checkpoint.setup.seed
    }

    /// Plans the next generation: a dict with `generation`, `players` (each player's weights as
    /// JSON text: the samples, then the mean, then the start) and `tasks` (the games or
    /// positions each is measured on). Conclude it before planning another.
    fn plan<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        if self.pending.is_some() {
            return Err(PyValueError::new_err(
                "plan(): the last plan was not concluded (call conclude(values) first)",
            ));
        }
        let p = plan(&self.options, &self.objective, &mut self.checkpoint);
        let d = PyDict::new(py);
        d.set_item("generation", p.generation)?;
        let players: Vec<String> = p
            .players
            .iter()
            .map(weights_text)
            .collect::<PyResult<_>>()?;
        d.set_item("players", players)?;
        d.set_item("tasks", p.tasks.clone())?;
        self.pending = Some(p);
        Ok(d)
    }

    /// The value of the weights `weights` (JSON text) on `task` of `generation`: what the
    /// command line's tuner measures (a game's headline score, or a segment's points less its
    /// top-out loss). Needs no plan: a worker with the same checkpoint measures the same.
    fn evaluate(
        &self,
        py: Python<'_>,
        weights: &str,
        generation: u32,
        task: usize,
    ) -> PyResult<f64> {
        let w = ScoreWeights::parse(weights).map_err(|e| PyValueError::new_err(e.to_string()))?;
        if let Objective::Segments { starts, .. } = &self.objective
            && task >= starts.len()
        {
            return Err(PyValueError::new_err(format!(
                "task {task}: the position file has {} positions",
                starts.len()
            )));
        }
        let seed = self.checkpoint.setup.seed;
        Ok(py.detach(|| evaluate(&self.options, &self.objective, seed, generation, &w, task)))
    }

    /// Concludes the planned generation with `values`: every player's value on every task,
    /// player by player in the plan's order. Returns the generation's record as JSON text.
    fn conclude(&mut self, values: Vec<f64>) -> PyResult<String> {
        let Some(p) = self.pending.take() else {
            return Err(PyValueError::new_err(
                "conclude(): no generation was planned",
            ));
        };
        let want = p.players.len() * p.tasks.len();
        if values.len() != want {
            let got = values.len();
            self.pending = Some(p);
            return Err(PyValueError::new_err(format!(
                "values: {got} given, the plan needs {want} (players × tasks)"
            )));
        }
        conclude(&mut self.checkpoint, &p, &values);
        serde_json::to_string(
            self.checkpoint
                .history
                .last()
                .expect("a generation concluded"),
        )
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    /// The checkpoint as the command line writes it (JSON text).
    fn checkpoint_json(&self) -> PyResult<String> {
        serde_json::to_string_pretty(&self.checkpoint)
            .map(|s| s + "\n")
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    /// The mean weights as a weights file, with how they were made (the command line's `--out`).
    fn weights_json(&self) -> PyResult<String> {
        self.checkpoint
            .weights_file()
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }
}
