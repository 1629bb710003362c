//! Minijong: the page plays with the mouse; the server keeps no game. Each request carries the
//! deal's seed and the pairs removed so far (as 7×7 positions), and the server replays them with
//! the library's rules, so undo is dropping the last pair and no session can pile up.

use axum::Json;
use playfield_minijong::board::{POSITIONS, SIDE, Slot};
use playfield_minijong::{Board, Game, Pair, solvable_deal};
use serde::Serialize;

use crate::ApiError;
use crate::fields::{Fields, JsonFields};

/// Pairs a request may carry (83 tiles make at most 41 removals).
const MAX_MOVES: usize = 41;

/// A position of the game.
#[derive(Clone, Debug)]
pub struct MinijongRequest {
    /// The deal's seed.
    pub seed: u64,
    /// Look for the first winnable deal from `seed` on (the answer says which seed it was).
    pub solvable: bool,
    /// Pairs removed so far, each as two 7×7 positions (0-48, row-major), first selected first.
    pub moves: Vec<[usize; 2]>,
}

impl MinijongRequest {
    /// Reads `seed`, `solvable` and `moves`.
    ///
    /// # Errors
    /// A 400 naming the field.
    pub fn from_fields(fields: &Fields) -> Result<Self, ApiError> {
        let seed = fields.integer("seed", "Seed", 0..=u64::MAX, None)?;
        let solvable = fields.flag("solvable", "Winnable deals only", false)?;
        let moves = fields
            .list("moves", "Moves")?
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let pair = m.as_array().and_then(|p| match p.as_slice() {
                    [a, b] => Some([a.as_u64()?, b.as_u64()?]),
                    _ => None,
                });
                pair.map(|[a, b]| [a as usize, b as usize]).ok_or_else(|| {
                    ApiError::field(
                        "moves",
                        format!("pair {} must be two tile positions, as [12, 30]", i + 1),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(MinijongRequest {
            seed,
            solvable,
            moves,
        })
    }
}

/// One tile still on the board.
#[derive(Clone, Debug, Serialize)]
pub struct Tile {
    /// 7×7 position (0-48).
    pub pos: usize,
    /// Row of the 7×7 grid.
    pub row: usize,
    /// Column of the 7×7 grid.
    pub col: usize,
    /// 0 bottom, 1 middle, 2 top.
    pub level: u8,
    /// Face 1-21 (four of each; one face three times).
    pub face: u8,
    /// The topmost tile of its position (the only one that can be seen and picked).
    pub visible: bool,
    /// Visible and free to remove.
    pub free: bool,
}

/// The game after the request's moves.
#[derive(Clone, Debug, Serialize)]
pub struct MinijongState {
    /// The deal's seed (the winnable one found when `solvable` was asked).
    pub seed: u64,
    /// Tiles on the board, bottom level first.
    pub tiles: Vec<Tile>,
    /// How many.
    pub tiles_left: usize,
    /// Pairs removed.
    pub moves: usize,
    /// No free matching pair is left.
    pub over: bool,
    /// Won: at most the odd tile remains.
    pub cleared: bool,
}

fn position(p: usize) -> Result<usize, ApiError> {
    if p < POSITIONS {
        Ok(p)
    } else {
        Err(ApiError::field(
            "moves",
            format!("position {p} is outside the 7×7 grid of tiles (0-48)"),
        ))
    }
}

/// The game of `request` (its deal, its moves replayed).
///
/// # Errors
/// A 400 for a position off the grid or a pair the rules refuse (with the rule's reason).
pub fn replay(request: &MinijongRequest) -> Result<(u64, Game), ApiError> {
    if request.moves.len() > MAX_MOVES {
        return Err(ApiError::bad_request(format!(
            "{} pairs removed: a game has at most {MAX_MOVES}",
            request.moves.len()
        ))
        .on("moves"));
    }
    let (seed, board) = if request.solvable {
        let (seed, board, _) = solvable_deal(request.seed);
        (seed, board)
    } else {
        (request.seed, Board::deal(request.seed))
    };
    let mut game = Game::new(board);
    for (i, &[a, b]) in request.moves.iter().enumerate() {
        let (a, b) = (position(a)?, position(b)?);
        let slot = |p: usize| {
            game.visible_slot(p / SIDE, p % SIDE).ok_or_else(|| {
                ApiError::field(
                    "moves",
                    format!(
                        "pair {}: no tile is left at row {}, column {}",
                        i + 1,
                        p / SIDE + 1,
                        p % SIDE + 1
                    ),
                )
            })
        };
        let pair = Pair {
            a: slot(a)?,
            b: slot(b)?,
        };
        game.play(pair).map_err(|e| {
            let why = match e {
                playfield_minijong::Error::IllegalPair { why, .. } => why.to_owned(),
                other => other.to_string(),
            };
            ApiError::field(
                "moves",
                format!("pair {}: these two tiles cannot be removed: {why}", i + 1),
            )
        })?;
    }
    Ok((seed, game))
}

/// The state shown for `game`.
#[must_use]
pub fn state_of(seed: u64, game: &Game) -> MinijongState {
    let heights = game.heights();
    let mut tiles = Vec::new();
    for level in 0..3u8 {
        for (pos, &height) in heights.iter().enumerate() {
            if level < height
                && let Some(slot) = Slot::at(pos, usize::from(level))
                && let Some(face) = game.board().face(slot)
            {
                let visible = level + 1 == height;
                tiles.push(Tile {
                    pos,
                    row: pos / SIDE,
                    col: pos % SIDE,
                    level,
                    face,
                    visible,
                    free: visible && game.is_free(pos / SIDE, pos % SIDE),
                });
            }
        }
    }
    MinijongState {
        seed,
        tiles_left: game.tiles_left(),
        tiles,
        moves: game.history().len(),
        over: game.is_over(),
        cleared: game.is_cleared(),
    }
}

/// `POST /api/minijong/state`.
///
/// # Errors
/// A 400 for an illegal move.
pub async fn state(JsonFields(fields): JsonFields) -> Result<Json<MinijongState>, ApiError> {
    let request = MinijongRequest::from_fields(&fields)?;
    let (seed, game) = blocking(move || replay(&request)).await?;
    Ok(Json(state_of(seed, &game)))
}

/// `POST /api/minijong/hint`: `{"hint": [a, b]}` (7×7 positions) or `{"hint": null}` when no
/// pair is left.
///
/// # Errors
/// A 400 for an illegal move.
pub async fn hint(JsonFields(fields): JsonFields) -> Result<Json<serde_json::Value>, ApiError> {
    let request = MinijongRequest::from_fields(&fields)?;
    let hint = blocking(move || {
        let (_, game) = replay(&request)?;
        Ok(game.hint().map(|p| [p.a.position(), p.b.position()]))
    })
    .await?;
    Ok(Json(serde_json::json!({ "hint": hint })))
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::bad_request(format!("request failed: {e}")))?
}
