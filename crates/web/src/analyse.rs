//! Analyse: a board, the current and next piece, the level and an input model in; the AI's
//! placements out, best first, each with its cost (Birken's evaluator, lower is better), the
//! buttons of every frame, and the piece's path frame by frame (for the page's animation).

use axum::Json;
use playfield_ai::nes::search::{is_position_valid, step_piece};
use playfield_ai::nes::{InputModel, PieceState, Player, Situation, Workspace};
use playfield_nes::Buttons;
use playfield_nes::tables::{SPAWN_TABLE, TILE_EMPTY, TILE1};
use serde::{Deserialize, Serialize};

use crate::ApiError;
use crate::nes_frame::{PIECE_NAMES, orientation_cells};

/// A request: the board as text and the rest of the situation.
#[derive(Clone, Debug, Deserialize)]
pub struct AnalyseRequest {
    /// 20 rows of 10 cells, top row first: `.` empty, `#` (or any of `X x O o 1 2 3 *`) a block.
    pub board: String,
    /// The piece to place: T J Z O S L I.
    pub piece: String,
    /// The preview piece, when known (the AI then looks two pieces ahead).
    pub next: Option<String>,
    /// `levelNumber` (decides gravity).
    pub level: u8,
    /// Input timeline (`X`, `X.`, `X..`, ...).
    pub input: String,
    /// DAS allowed.
    pub das: bool,
}

/// One ranked placement.
#[derive(Clone, Debug, Serialize)]
pub struct RankedPlacement {
    /// `tetriminoX` at lock.
    pub x: u8,
    /// `tetriminoY` at lock.
    pub y: u8,
    /// Orientation id at lock.
    pub orientation: u8,
    /// The cells it covers.
    pub cells: [[i16; 2]; 4],
    /// The evaluator's cost (lower is better).
    pub cost: f64,
    /// Buttons per frame, FCEUX order `RLDUTSBA` (`.` = nothing pressed).
    pub buttons: Vec<String>,
    /// The same, run-length coded: `3×. R 2×. A`.
    pub sequence: String,
    /// The piece's cells after each frame (for the animation).
    pub path: Vec<[[i16; 2]; 4]>,
}

/// The answer.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// Placements, best first.
    pub placements: Vec<RankedPlacement>,
    /// Set when the piece cannot even spawn.
    pub note: Option<String>,
}

/// A piece letter's type (0-6, T J Z O S L I).
///
/// # Errors
/// A message naming the letter and the choices.
pub fn piece_type(what: &str, letter: &str) -> Result<u8, String> {
    let upper = letter.trim().to_ascii_uppercase();
    PIECE_NAMES
        .iter()
        .position(|&c| upper.len() == 1 && upper.starts_with(c))
        .map(|t| t as u8)
        .ok_or_else(|| format!("{what} {letter:?} is not a piece: expected one of T J Z O S L I"))
}

/// The playfield page (256 bytes, the ROM's layout) for a board in text form.
///
/// # Errors
/// A message naming the row and column of a bad cell, or the wrong row or cell count.
pub fn parse_board(text: &str) -> Result<[u8; 256], String> {
    let rows: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .skip_while(|l| l.is_empty())
        .collect();
    let rows: Vec<&str> = {
        let mut r = rows;
        while r.last().is_some_and(|l| l.is_empty()) {
            r.pop();
        }
        r
    };
    if rows.len() != 20 {
        return Err(format!(
            "the board has {} rows; expected 20 rows of 10 cells (. empty, # block)",
            rows.len()
        ));
    }
    let mut page = [TILE_EMPTY; 256];
    for (y, row) in rows.iter().enumerate() {
        let cells: Vec<char> = row.chars().collect();
        if cells.len() != 10 {
            return Err(format!(
                "board row {} has {} cells; expected 10",
                y + 1,
                cells.len()
            ));
        }
        for (x, &c) in cells.iter().enumerate() {
            page[y * 10 + x] = match c {
                '.' | ' ' | '0' => TILE_EMPTY,
                '#' | 'X' | 'x' | 'O' | 'o' | '1' | '2' | '3' | '*' => TILE1,
                other => {
                    return Err(format!(
                        "board row {}, column {}: {other:?} is not a cell (. empty, # block)",
                        y + 1,
                        x + 1
                    ));
                }
            };
        }
    }
    Ok(page)
}

/// FCEUX's letters for a frame's buttons (`.` when none).
fn button_letters(b: Buttons) -> String {
    const ORDER: [(Buttons, char); 8] = [
        (Buttons::RIGHT, 'R'),
        (Buttons::LEFT, 'L'),
        (Buttons::DOWN, 'D'),
        (Buttons::UP, 'U'),
        (Buttons::START, 'T'),
        (Buttons::SELECT, 'S'),
        (Buttons::B, 'B'),
        (Buttons::A, 'A'),
    ];
    let s: String = ORDER
        .iter()
        .filter(|(bit, _)| b.0 & bit.0 != 0)
        .map(|&(_, c)| c)
        .collect();
    if s.is_empty() { ".".to_owned() } else { s }
}

fn run_length(frames: &[String]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < frames.len() {
        let mut j = i;
        while j < frames.len() && frames[j] == frames[i] {
            j += 1;
        }
        out.push(if j - i == 1 {
            frames[i].clone()
        } else {
            format!("{}×{}", j - i, frames[i])
        });
        i = j;
    }
    out.join(" ")
}

/// The player the analysis asks (Birken's AI with the request's input model; two-piece
/// lookahead when the preview is given).
///
/// # Errors
/// The input model's message.
pub fn player(request: &AnalyseRequest) -> Result<Player, ApiError> {
    // The reaction time does not matter here: the preview is either given or not.
    let model = InputModel::new(&request.input, request.das, 0)
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok(Player::birken(model))
}

/// The analysis of `request`.
///
/// # Errors
/// A 400 naming the bad board cell, piece or input model.
pub fn analyse(request: &AnalyseRequest) -> Result<Analysis, ApiError> {
    let page = parse_board(&request.board).map_err(ApiError::bad_request)?;
    let piece = piece_type("piece", &request.piece).map_err(ApiError::bad_request)?;
    let next = match request.next.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(n) => Some(piece_type("next piece", n).map_err(ApiError::bad_request)?),
    };
    let player = player(request)?;
    let orientation = SPAWN_TABLE[usize::from(piece)];
    if !is_position_valid(&page, 5, 0, orientation) {
        return Ok(Analysis {
            placements: Vec::new(),
            note: Some("the piece cannot spawn: the stack covers its spawn cells".to_owned()),
        });
    }
    let start = PieceState::spawn(orientation, 0);
    let situation = Situation {
        level: request.level,
        lines: [0, 0],
        game_type: 0,
        double_speed_level: None,
        line_cap: None,
    };
    let next_orientation = next.map(|t| SPAWN_TABLE[usize::from(t)]);
    let mut ws = Workspace::new();
    let ranked = player.rank(&mut ws, &page, start, situation, next_orientation);
    let gravity = situation.gravity();
    let placements = ranked
        .into_iter()
        .map(|ranked| {
            let d = ranked.decision;
            let buttons: Vec<String> = d.inputs.iter().map(|&b| button_letters(b)).collect();
            let mut s = start;
            let path = d
                .inputs
                .iter()
                .map(|b| {
                    step_piece(&page, &mut s, b.0, gravity);
                    orientation_cells(s.orientation, i16::from(s.x), i16::from(s.y))
                })
                .collect();
            let p = d.placement;
            RankedPlacement {
                x: p.x,
                y: p.y,
                orientation: p.orientation,
                cells: orientation_cells(p.orientation, i16::from(p.x), i16::from(p.y)),
                cost: d.cost,
                sequence: run_length(&buttons),
                buttons,
                path,
            }
        })
        .collect();
    Ok(Analysis {
        placements,
        note: None,
    })
}

/// `POST /api/analyse`.
///
/// # Errors
/// A 400 naming the bad board cell, piece, or input model.
pub async fn handler(Json(request): Json<AnalyseRequest>) -> Result<Json<Analysis>, ApiError> {
    let analysis = tokio::task::spawn_blocking(move || analyse(&request))
        .await
        .map_err(|e| ApiError::bad_request(format!("analysis failed: {e}")))??;
    Ok(Json(analysis))
}
