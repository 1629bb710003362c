//! Analyse: a board, the current and next piece, the level, an input model and a player in; the
//! player's placements out, best first, each with its value (higher is better), the buttons of
//! every frame and the piece's path frame by frame (for the page's animation), and, when the
//! preview is known, the player's best placement for it after the best one.

use axum::Json;
use playfield_ai::nes::search::{Gravity, is_position_valid, step_piece};
use playfield_ai::nes::{PieceState, Player, Ranked, Situation, Workspace};
use playfield_nes::tables::{TILE_EMPTY, TILE1};
use playfield_nes::{Board, Buttons, GameType, Piece};
use serde::Serialize;

use crate::ApiError;
use crate::fields::{Fields, JsonFields};
use crate::nes_frame::{PIECE_NAMES, orientation_cells, orientation_name};

/// A request: the board as text and the rest of the situation.
#[derive(Clone, Debug)]
pub struct AnalyseRequest {
    /// The playfield page (20 rows of 10 cells, the ROM's layout).
    pub page: [u8; 256],
    /// The piece to place.
    pub piece: Piece,
    /// The preview piece, when known (the player then looks two pieces ahead).
    pub next: Option<Piece>,
    /// `levelNumber` (decides gravity).
    pub level: u8,
    /// The player and its input model.
    pub player: Player,
}

impl AnalyseRequest {
    /// Reads a request's fields: `board` (20 rows of 10 cells, top row first: `.` empty, `#` a
    /// block), `piece`, `next` (empty or absent: unknown), `level`, `input`, `das`, `player`.
    ///
    /// # Errors
    /// A 400 naming the field at fault and what it should be.
    pub fn from_fields(fields: &Fields) -> Result<Self, ApiError> {
        let board = fields.text("board", "Board", "")?;
        let page = parse_board(&board).map_err(|e| ApiError::field("board", e))?;
        let piece_text = fields.text("piece", "Piece", "")?;
        let piece = piece_type("Piece", &piece_text).map_err(|e| ApiError::field("piece", e))?;
        let next = match fields.text("next", "Next piece", "")?.trim() {
            "" => None,
            n => Some(piece_type("Next piece", n).map_err(|e| ApiError::field("next", e))?),
        };
        let level = fields.byte("level", "Level", 0..=255, None)?;
        // The reaction time does not matter here: the preview is either given or not.
        let model = crate::players::input_model(fields, 0)?;
        let name = fields.text("player", "Player", crate::players::DEFAULT)?;
        let player = crate::players::by_name(name.trim(), model)?;
        Ok(AnalyseRequest {
            page,
            piece,
            next,
            level,
            player,
        })
    }
}

/// One term of a placement's value.
#[derive(Clone, Debug, Serialize)]
pub struct TermValue {
    /// What it measures.
    pub name: String,
    /// Its contribution to the value.
    pub value: f64,
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
    /// The orientation by piece letter and rotation from spawn (`T 0`, `T R`, `T 2`, `T L`).
    pub rotation: String,
    /// The columns it covers, 1-10 from the left (`4-6`).
    pub columns: String,
    /// The cells it covers.
    pub cells: [[i16; 2]; 4],
    /// The player's value of the placement (higher is better).
    pub value: f64,
    /// The value's terms (they sum to it).
    pub terms: Vec<TermValue>,
    /// Lines this placement clears.
    pub clears: u8,
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
    /// The player that ranked.
    pub player: String,
    /// Placements, best first.
    pub placements: Vec<RankedPlacement>,
    /// The player's best placement of the preview piece once the best placement has locked
    /// (and its lines cleared), when the preview is known.
    pub follow_up: Option<RankedPlacement>,
    /// Set when the piece cannot even spawn.
    pub note: Option<String>,
}

/// The piece a letter names (T J Z O S L I).
///
/// # Errors
/// A message naming the letter and the choices.
pub fn piece_type(what: &str, letter: &str) -> Result<Piece, String> {
    let upper = letter.trim().to_ascii_uppercase();
    PIECE_NAMES
        .iter()
        .position(|&c| upper.len() == 1 && upper.starts_with(c))
        .and_then(Piece::from_index)
        .ok_or_else(|| {
            format!(
                "{what} {:?} is not a piece: expected one of T J Z O S L I",
                letter.trim()
            )
        })
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
            "the board has {} rows; it needs 20 rows of 10 cells (. empty, # block)",
            rows.len()
        ));
    }
    let mut page = [TILE_EMPTY; 256];
    for (y, row) in rows.iter().enumerate() {
        let cells: Vec<char> = row.chars().collect();
        if cells.len() != 10 {
            return Err(format!(
                "board row {} has {} cells; it needs 10 (. empty, # block)",
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
#[must_use]
pub fn button_letters(b: Buttons) -> String {
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
        .filter(|(bit, _)| b.bits() & bit.bits() != 0)
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

/// A placement's entry: names, cells, value and the animation path from `start`.
fn entry(page: &[u8; 256], start: PieceState, gravity: Gravity, ranked: Ranked) -> RankedPlacement {
    let Ranked {
        decision: d,
        value,
        terms,
    } = ranked;
    let terms = terms
        .into_iter()
        .map(|t| TermValue {
            name: t.name.to_owned(),
            value: t.value,
        })
        .collect();
    let buttons: Vec<String> = d.inputs.iter().map(|&b| button_letters(b)).collect();
    let mut s = start;
    let path = d
        .inputs
        .iter()
        .map(|b| {
            step_piece(page, &mut s, b.bits(), gravity);
            orientation_cells(
                s.piece.orientation.id(),
                i16::from(s.piece.x),
                i16::from(s.piece.y),
            )
        })
        .collect();
    let p = d.placement;
    let cells = orientation_cells(p.orientation, i16::from(p.x), i16::from(p.y));
    let (left, right) = cells
        .iter()
        .fold((i16::MAX, i16::MIN), |(l, r), c| (l.min(c[0]), r.max(c[0])));
    let (_, clears) = locked(page, &cells);
    RankedPlacement {
        x: p.x,
        y: p.y,
        orientation: p.orientation,
        rotation: orientation_name(p.orientation),
        columns: if left == right {
            format!("{}", left + 1)
        } else {
            format!("{}-{}", left + 1, right + 1)
        },
        cells,
        value,
        terms,
        clears,
        sequence: run_length(&buttons),
        buttons,
        path,
    }
}

/// The board after a piece locks on `cells`, its full rows cleared, and how many were.
#[must_use]
pub fn locked(page: &[u8; 256], cells: &[[i16; 2]; 4]) -> ([u8; 256], u8) {
    let mut after = *page;
    for &[x, y] in cells {
        if (0..10).contains(&x) && (0..20).contains(&y) {
            after[y as usize * 10 + x as usize] = TILE1;
        }
    }
    let mut rows: Vec<[u8; 10]> = (0..20)
        .map(|y| {
            let mut row = [TILE_EMPTY; 10];
            row.copy_from_slice(&after[y * 10..y * 10 + 10]);
            row
        })
        .filter(|row| row.contains(&TILE_EMPTY))
        .collect();
    let cleared = 20 - rows.len();
    let mut out = [TILE_EMPTY; 256];
    out[200..].copy_from_slice(&page[200..]);
    let mut padded = vec![[TILE_EMPTY; 10]; cleared];
    padded.append(&mut rows);
    for (y, row) in padded.iter().enumerate() {
        out[y * 10..y * 10 + 10].copy_from_slice(row);
    }
    (out, cleared as u8)
}

/// The player's ranking, best first: every placement with its value and the terms it is made of.
fn ranking(
    player: &Player,
    ws: &mut Workspace,
    page: &[u8; 256],
    start: PieceState,
    situation: Situation,
    next: Option<Piece>,
) -> Vec<Ranked> {
    player.rank(ws, &Board::from_page(page), start, situation, next)
}

/// The analysis of `request`.
#[must_use]
pub fn analyse(request: &AnalyseRequest) -> Analysis {
    let page = &request.page;
    let player = &request.player;
    let orientation = request.piece.spawn_orientation();
    let mut analysis = Analysis {
        player: player.name.clone(),
        placements: Vec::new(),
        follow_up: None,
        note: None,
    };
    if !is_position_valid(page, 5, 0, orientation.id()) {
        analysis.note =
            Some("the piece cannot appear: the stack covers its spawn cells".to_owned());
        return analysis;
    }
    let start = PieceState::spawn(orientation, 0);
    let situation = Situation {
        level: request.level,
        lines: 0,
        game_type: GameType::A,
        double_speed_level: None,
        line_cap: None,
        unsafe_clears: 0,
        score_maxed: false,
    };
    let mut ws = Workspace::new();
    let gravity = situation.gravity();
    analysis.placements = ranking(player, &mut ws, page, start, situation, request.next)
        .into_iter()
        .map(|r| entry(page, start, gravity, r))
        .collect();
    if let (Some(best), Some(next)) = (analysis.placements.first(), request.next) {
        let (after, _) = locked(page, &best.cells);
        let next = next.spawn_orientation();
        if is_position_valid(&after, 5, 0, next.id()) {
            let start = PieceState::spawn(next, 0);
            analysis.follow_up = ranking(player, &mut ws, &after, start, situation, None)
                .into_iter()
                .next()
                .map(|r| entry(&after, start, gravity, r));
        }
    }
    if analysis.placements.is_empty() {
        analysis.note = Some(format!(
            "{} has no ranking to show for this board",
            player.name
        ));
    }
    analysis
}

/// `POST /api/analyse` with the fields of [`AnalyseRequest::from_fields`].
///
/// # Errors
/// A 400 naming the field at fault (board cell, piece, level, input model, player).
pub async fn handler(JsonFields(fields): JsonFields) -> Result<Json<Analysis>, ApiError> {
    let request = AnalyseRequest::from_fields(&fields)?;
    let analysis = tokio::task::spawn_blocking(move || analyse(&request))
        .await
        .map_err(|e| ApiError::bad_request(format!("the analysis failed: {e}")))?;
    Ok(Json(analysis))
}
