//! `playfield.standard`: the Standard Tetris players.

use numpy::{PyReadonlyArray2, PyUntypedArrayMethods};
use playfield_ai::standard::{Evaluator, MoveModel, Player, PlayerConfig};
use playfield_standard::{Board, EndRule, Piece};
use pyo3::prelude::*;

use crate::error::ArgError;
use crate::game::{COLS, standard_action};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<StandardPlayer>()?;
    Ok(())
}

/// A Standard Tetris player: Dellacherie (as Fahey coded it), El-Tetris or BCTS, one- or
/// two-piece search, under the standard or simplified move model.
#[pyclass(module = "playfield._playfield", frozen)]
pub struct StandardPlayer {
    player: Player,
}

fn piece_arg(index: i64) -> PyResult<Piece> {
    u8::try_from(index + 1)
        .ok()
        .and_then(Piece::from_index)
        .ok_or_else(|| ArgError::Piece(index).into())
}

#[pymethods]
impl StandardPlayer {
    /// `ai` is "dellacherie", "el-tetris" or "bcts"; `model` "standard" or "simplified";
    /// `end_rule` "spawn-blocked" (Fahey's) or "no-placement".
    #[new]
    #[pyo3(signature = (ai = "dellacherie", model = "standard", lookahead = 1, end_rule = "spawn-blocked"))]
    fn new(
        ai: &str,
        model: &str,
        #[pyo3(from_py_with = crate::args::lookahead)] lookahead: u8,
        end_rule: &str,
    ) -> PyResult<Self> {
        let evaluator = Evaluator::ALL
            .into_iter()
            .find(|e| e.name() == ai)
            .ok_or_else(|| ArgError::UnknownAi(ai.to_owned()))?;
        let model: MoveModel = model.parse().map_err(ArgError::from)?;
        let end_rule = match end_rule {
            "spawn-blocked" => EndRule::SpawnBlocked,
            "no-placement" => EndRule::NoPlacement,
            _ => return Err(ArgError::EndRule(end_rule.to_owned()).into()),
        };
        let mut config = PlayerConfig::new(evaluator, model);
        config.lookahead = lookahead;
        config.end_rule = end_rule;
        Ok(StandardPlayer {
            player: Player::new(config),
        })
    }

    /// The best placement of `piece` (0-6) on `board` (rows × 10, top row first, as the
    /// environment's observation), knowing `next` with two-piece search: a tuple (action,
    /// orientation, x, y), or None when the piece fits nowhere.
    #[pyo3(signature = (board, piece, next = None))]
    fn best(
        &self,
        board: PyReadonlyArray2<'_, u8>,
        piece: i64,
        next: Option<i64>,
    ) -> PyResult<Option<(usize, u8, i32, i32)>> {
        let shape = board.shape();
        if shape.len() != 2 || shape[1] != COLS {
            return Err(ArgError::BoardShape(shape.to_vec()).into());
        }
        let h = shape[0];
        let a = board.as_array();
        let rows: Vec<u16> = (0..h)
            .map(|y| {
                let r = h - 1 - y;
                (0..COLS).fold(0u16, |acc, x| acc | (u16::from(a[[r, x]] != 0) << x))
            })
            .collect();
        let board = Board::from_rows(h, &rows).map_err(ArgError::from)?;
        let piece = piece_arg(piece)?;
        let next = next.map(piece_arg).transpose()?;
        Ok(self.player.choose(&board, piece, next).and_then(|p| {
            standard_action(p.orientation, p.x).map(|act| (act, p.orientation, p.x, p.y))
        }))
    }
}
