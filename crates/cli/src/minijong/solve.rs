//! `playfield minijong solve`.

use std::fmt::Write as _;

use anyhow::Context;
use playfield_minijong::board::{LEVELS, level_side};
use playfield_minijong::{Board, Face, Slot, solve_limited};
use serde::Serialize;

/// The JSON answer: `board[level][row][col]` is a face or null, `solution` pairs of
/// `[level, row, col]` in play order.
#[derive(Serialize)]
struct Answer {
    seed: u64,
    board: Vec<Vec<Vec<Option<Face>>>>,
    winnable: bool,
    solution: Vec<[[u8; 3]; 2]>,
}

/// Runs the command.
pub fn run(seed: u64, json: bool, max_nodes: Option<u64>) -> anyhow::Result<()> {
    let board = Board::deal(seed);
    let limit = max_nodes.unwrap_or(u64::MAX);
    let solution = solve_limited(&board, &board.initial_heights(), limit).with_context(|| {
        format!("deal {seed} not decided within --max-nodes {limit} search positions")
    })?;
    let mut text = String::new();
    let out = &mut text;
    if json {
        let answer = Answer {
            seed,
            board: board.levels(),
            winnable: solution.winnable,
            solution: solution
                .moves
                .iter()
                .map(|p| [p.a.to_array(), p.b.to_array()])
                .collect(),
        };
        writeln!(out, "{}", serde_json::to_string(&answer)?)?;
        return print(&text);
    }
    writeln!(out, "Minijong deal {seed} (faces 1..=21 shown as A..U)")?;
    for level in 0..LEVELS {
        let side = level_side(level);
        writeln!(out, "level {level} ({side}x{side}):")?;
        for row in 0..side {
            let line: Vec<String> = (0..side)
                .map(|col| {
                    let slot = Slot::new(level, row, col).expect("in range");
                    board
                        .face(slot)
                        .map_or(".".to_string(), |f| face_letter(f).to_string())
                })
                .collect();
            writeln!(out, "  {}", line.join(" "))?;
        }
    }
    if solution.winnable {
        writeln!(
            out,
            "winnable: yes, cleared to {} tile",
            solution.tiles_left
        )?;
    } else {
        writeln!(
            out,
            "winnable: no; best reachable result leaves {} tiles",
            solution.tiles_left
        )?;
    }
    writeln!(
        out,
        "{} pairs (level,row,col each level from its own top-left):",
        solution.moves.len()
    )?;
    for (i, p) in solution.moves.iter().enumerate() {
        let face = board.face(p.a).map_or('?', face_letter);
        writeln!(
            out,
            "  {:>2}. {face}  {:?} + {:?}",
            i + 1,
            p.a.to_array(),
            p.b.to_array()
        )?;
    }
    print(&text)
}

/// Prints the answer through the one output path.
fn print(text: &str) -> anyhow::Result<()> {
    let mut out = crate::output::Out::new();
    out.line(text.trim_end())?;
    out.flush()?;
    Ok(())
}

/// Face `f` as the letter the Atari showed (ASCII 33..60 drew inverse A, B, ...).
pub fn face_letter(f: Face) -> char {
    char::from_u32(u32::from(b'A') + u32::from(f) - 1).unwrap_or('?')
}
