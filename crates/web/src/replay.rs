//! Replay: an uploaded .fm2 movie played from power-on, any frame shown with its traced state.
//!
//! A movie's last input line is often not its result: a TAS's last press comes frames before the
//! final line clear scores. So when the movie ends mid-game, the game runs on with no buttons
//! pressed until it ends (top-out, curtain, B-type goal) or [`RUN_ON_FRAMES_MAX`] frames pass, and
//! those frames are shown too.
//!
//! The upload is parsed with the engine's own .fm2 parser and refused with the same messages as
//! `playfield nes replay` ("in NAME: line L: ..."); accepted movies are replayed once, keeping a
//! copy of the engine every [`CHECKPOINT_FRAMES`] frames, so any frame is at most that many
//! steps away. Only the last [`MAX_REPLAYS`] uploads are kept.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{Path, State};
use playfield_nes::fm2::{InputLine, Movie};
use playfield_nes::{Buttons, Events, GameMode, GameType, Nes, Piece, PlayState};
use serde::Serialize;

use crate::fields::Fields;
use crate::nes_frame::{NesFrame, orientation_name};
use crate::{ApiError, AppState};
use playfield_rom::EngineData;

/// Frames between two kept engine states.
pub const CHECKPOINT_FRAMES: usize = 1024;
/// Uploaded movies kept at once (the oldest goes first).
pub const MAX_REPLAYS: usize = 8;
/// The most frames a game runs on with no input after the movie's last line (10 minutes).
pub const RUN_ON_FRAMES_MAX: u64 = 36_000;
/// Frames shown after a top-out, so the curtain falls (it takes 4 frames a row for 20 rows).
const CURTAIN_FRAMES: u64 = 90;

/// A replayed movie.
#[derive(Debug)]
pub struct Replay {
    /// The uploaded file's name.
    pub name: String,
    lines: Vec<InputLine>,
    /// Engine states at frames 0, CHECKPOINT_FRAMES, 2 × CHECKPOINT_FRAMES, ...
    checkpoints: Vec<Nes>,
    /// Frames that can be shown (the movie's length plus the run-on, or where the engine
    /// stopped).
    pub frames: u64,
    /// The movie's input lines (frames past them run on with no input).
    pub input_frames: u64,
    /// Why the engine stopped before the end, if it did (or where the game crashed).
    pub stopped: Option<String>,
    /// From which frame on, and what, the page notes about lag and crashes not being modelled
    /// (the game reached level 100 without the ROM).
    pub lag_note: Option<(u64, String)>,
    /// How the game ended after the last input line, in words.
    pub ending: Option<String>,
    /// The state at the last frame.
    pub last: NesFrame,
    /// Frames (after that many lines) where something happened, for the jump buttons.
    pub marks: Marks,
    /// Clears, tetris rate, burns, droughts and the score by lines.
    pub stats: PlayStats,
}

/// What a game's line clears say about its play, as NES players count them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PlayStats {
    /// Clears of 1, 2, 3 and 4 lines.
    pub clears: [u32; 4],
    /// Lines cleared by tetrises, out of all lines cleared (0-1; 0 when none).
    pub tetris_rate: f64,
    /// Lines cleared other than by tetrises.
    pub burns: u32,
    /// The longest run of pieces without an I piece.
    pub longest_drought: u32,
    /// The current run of pieces without an I piece (at the last frame).
    pub drought: u32,
    /// Score after each line clear: `[lines, score]`, starting from `[0, 0]`.
    pub score_by_lines: Vec<[u32; 2]>,
}

impl PlayStats {
    /// Counts what `events` (one frame's) did to the game `nes`.
    pub fn record(&mut self, events: Events, nes: &Nes) {
        if events.spawned() {
            if nes
                .last_piece()
                .is_some_and(|piece| piece.piece() == Piece::I)
            {
                self.drought = 0;
            } else {
                self.drought += 1;
                self.longest_drought = self.longest_drought.max(self.drought);
            }
        }
        let cleared = events.cleared();
        if (1..=4).contains(&cleared) {
            self.clears[usize::from(cleared) - 1] += 1;
            if self.score_by_lines.is_empty() {
                self.score_by_lines.push([0, 0]);
            }
            self.score_by_lines.push([nes.lines(), nes.score()]);
        }
        let total: u32 = self.clears.iter().zip(1..).map(|(n, k)| n * k).sum();
        self.burns = total - 4 * self.clears[3];
        self.tetris_rate = if total == 0 {
            0.0
        } else {
            f64::from(4 * self.clears[3]) / f64::from(total)
        };
    }
}

/// The frames where a piece locked, lines were cleared, or the level went up (the frame
/// numbers shown, i.e. the state after that many lines).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Marks {
    /// A piece locked.
    pub locks: Vec<u64>,
    /// Lines were cleared (scored).
    pub clears: Vec<u64>,
    /// The level went up.
    pub levels: Vec<u64>,
}

/// Summary of an accepted upload.
#[derive(Clone, Debug, Serialize)]
pub struct ReplaySummary {
    /// Id to ask for frames.
    pub id: u64,
    /// File name.
    pub name: String,
    /// Frames that can be shown (0 ..= frames).
    pub frames: u64,
    /// The movie's own input lines; later frames ran on with no input.
    pub input_frames: u64,
    /// How the game ended after the last input line, if it ran on.
    pub ending: Option<String>,
    /// Frames of interest.
    pub marks: Marks,
    /// Clears, tetris rate, burns, droughts and the score by lines.
    pub stats: PlayStats,
    /// Why the engine stopped early, if it did (shown as an error).
    pub stopped: Option<String>,
    /// "lag and crashes not modelled (...)" when the game reached level 100 without the ROM.
    pub note: Option<String>,
    /// Score at the last frame.
    pub score: u32,
    /// Lines at the last frame.
    pub lines: u32,
    /// Level at the last frame.
    pub level: u8,
}

impl Replay {
    /// Parses and replays `text` (an .fm2 movie named `name`) on an engine given the ROM's
    /// program and demo tables when `rom` is given (without them lag and crashes are not
    /// modelled).
    ///
    /// # Errors
    /// The parser's error, prefixed "in NAME: " as the CLI prints it, a movie of another game
    /// (its `romChecksum`, as the CLI checks it), or a PAL movie.
    pub fn new(name: &str, text: &str, rom: Option<&EngineData>) -> Result<Replay, String> {
        let movie = Movie::parse(text).map_err(|e| format!("in {name}: {e}"))?;
        movie
            .check_tetris()
            .map_err(|e| format!("in {name}: {e}"))?;
        if movie.pal() {
            return Err(format!("{name} is a PAL movie; the USA ROM is NTSC"));
        }
        let mut nes = Nes::power_on();
        if let Some(rom) = rom {
            rom.give_to(&mut nes);
        }
        let mut checkpoints = vec![nes.clone()];
        let mut stopped = None;
        let mut lag_note = None;
        let mut marks = Marks::default();
        let mut stats = PlayStats::default();
        let note = |events: Events, frame: u64, marks: &mut Marks| {
            if events.locked() {
                marks.locks.push(frame);
            }
            if events.cleared() > 0 {
                marks.clears.push(frame);
            }
            if events.leveled_up() {
                marks.levels.push(frame);
            }
        };
        let input_frames = movie.lines.len() as u64;
        let mut ending = None;
        let mut frame = 0u64;
        let mut topped_out_at = None;
        loop {
            let events = match movie.lines.get(frame as usize) {
                Some(line) => nes.step_line(line),
                None => {
                    // Past the movie: only while a game is on, with no button pressed.
                    if nes.game_mode() != GameMode::Play {
                        break;
                    }
                    // A game already over waits for Start: show its curtain and stop.
                    if topped_out_at.is_none()
                        && matches!(nes.play_state(), PlayState::GameOver | PlayState::Curtain)
                    {
                        topped_out_at = Some(frame);
                    }
                    if let Some(at) = topped_out_at
                        && frame >= at + CURTAIN_FRAMES
                    {
                        break;
                    }
                    if frame >= input_frames + RUN_ON_FRAMES_MAX {
                        ending = Some(format!(
                            "still playing {RUN_ON_FRAMES_MAX} frames after the last input"
                        ));
                        break;
                    }
                    nes.step(Buttons::NONE)
                }
            };
            frame += 1;
            if events.has(Events::UNSUPPORTED) {
                stopped = Some(format!(
                    "the engine stopped at frame {}: {}",
                    nes.frame(),
                    nes.unsupported()
                        .map_or_else(|| "unsupported state".to_owned(), |why| why.to_string())
                ));
                break;
            }
            note(events, frame, &mut marks);
            stats.record(events, &nes);
            if lag_note.is_none()
                && let Some(text) = crate::lag_note(&nes, nes.level())
            {
                lag_note = Some((frame, text));
            }
            if let Some(crash) = nes.crash() {
                stopped = Some(format!("the game crashed: {crash}"));
                break;
            }
            if frame > input_frames {
                if events.topped_out() && topped_out_at.is_none() {
                    topped_out_at = Some(frame);
                    ending = Some(format!(
                        "with no more input the stack reached the top at frame {frame}"
                    ));
                }
                if events.has(Events::B_TYPE_GOAL) {
                    ending = Some(format!("the B-type goal was reached at frame {frame}"));
                    if frame.is_multiple_of(CHECKPOINT_FRAMES as u64) {
                        checkpoints.push(nes.clone());
                    }
                    break;
                }
            }
            if frame.is_multiple_of(CHECKPOINT_FRAMES as u64) {
                checkpoints.push(nes.clone());
            }
        }
        Ok(Replay {
            name: name.to_owned(),
            frames: nes.frame(),
            input_frames,
            last: NesFrame::from_nes(&nes, None),
            lines: movie.lines,
            checkpoints,
            stopped,
            lag_note,
            ending,
            marks,
            stats,
        })
    }

    /// The buttons of frame `index` (0-based): the movie's, or none past its end.
    #[must_use]
    pub fn buttons_at(&self, index: u64) -> Buttons {
        self.lines
            .get(index as usize)
            .map_or(Buttons::NONE, |l| l.buttons)
    }

    /// The engine after `frame` input lines.
    #[must_use]
    pub fn state_at(&self, frame: u64) -> Nes {
        let frame = frame.min(self.frames) as usize;
        let at = (frame / CHECKPOINT_FRAMES).min(self.checkpoints.len() - 1);
        let mut nes = self.checkpoints[at].clone();
        for i in at * CHECKPOINT_FRAMES..frame {
            match self.lines.get(i) {
                Some(line) => nes.step_line(line),
                None => nes.step(Buttons::NONE),
            };
        }
        nes
    }
}

/// The uploads kept.
#[derive(Debug, Default)]
pub struct ReplayStore {
    next_id: AtomicU64,
    replays: Mutex<VecDeque<(u64, Arc<Replay>)>>,
}

impl ReplayStore {
    /// Movies kept.
    #[must_use]
    pub fn len(&self) -> usize {
        self.replays.lock().map_or(0, |r| r.len())
    }

    /// True when none is kept.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn insert(&self, replay: Replay) -> u64 {
        let id = self.next_id.fetch_add(1, Ordering::SeqCst) + 1;
        let mut replays = self.replays.lock().unwrap_or_else(|e| e.into_inner());
        if replays.len() >= MAX_REPLAYS {
            replays.pop_front();
        }
        replays.push_back((id, Arc::new(replay)));
        id
    }

    fn get(&self, id: u64) -> Option<Arc<Replay>> {
        let replays = self.replays.lock().unwrap_or_else(|e| e.into_inner());
        replays
            .iter()
            .find(|(i, _)| *i == id)
            .map(|(_, r)| r.clone())
    }
}

/// `POST /api/replay?name=NAME` with the movie as the body (at most 16 MiB).
///
/// # Errors
/// A 400 with the parser's message for a body that is not an NTSC .fm2 movie.
pub async fn upload(
    State(state): State<AppState>,
    fields: Fields,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<ReplaySummary>, ApiError> {
    let body = body.map_err(|e| ApiError::from_body_rejection(&e))?;
    let name: String = fields
        .text("name", "File name", "movie.fm2")?
        .chars()
        .filter(|c| !c.is_control())
        .take(200)
        .collect();
    let text = String::from_utf8(body.to_vec())
        .map_err(|e| ApiError::bad_request(format!("in {name}: not UTF-8 text ({e})")))?;
    let rom = state.rom.clone();
    let replay = tokio::task::spawn_blocking(move || Replay::new(&name, &text, rom.as_ref()))
        .await
        .map_err(|e| ApiError::bad_request(format!("replay failed: {e}")))?
        .map_err(ApiError::bad_request)?;
    let summary = ReplaySummary {
        id: 0,
        name: replay.name.clone(),
        frames: replay.frames,
        input_frames: replay.input_frames,
        ending: replay.ending.clone(),
        marks: replay.marks.clone(),
        stats: replay.stats.clone(),
        stopped: replay.stopped.clone(),
        note: replay.lag_note.as_ref().map(|(_, text)| text.clone()),
        score: replay.last.score,
        lines: replay.last.lines,
        level: replay.last.level,
    };
    let id = state.replays.insert(replay);
    Ok(Json(ReplaySummary { id, ..summary }))
}

/// `GET /api/replay/{id}/frame/{frame}`: the screen, the buttons held and the game's
/// variables decoded after `frame` input lines.
///
/// # Errors
/// 404 for an unknown (or expired) movie, 400 for a frame past its end.
pub async fn frame(
    State(state): State<AppState>,
    path: Result<Path<(u64, u64)>, PathRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Path((id, frame)) = path.map_err(|_| {
        ApiError::bad_request(
            "a frame is asked for as /api/replay/MOVIE/frame/FRAME, two whole numbers",
        )
    })?;
    let replay = state.replays.get(id).ok_or_else(|| {
        ApiError::not_found(format!("no movie {id}: it expired or was never uploaded"))
    })?;
    if frame > replay.frames {
        return Err(ApiError::bad_request(format!(
            "frame {frame} is past the end of {} ({} frames)",
            replay.name, replay.frames
        )));
    }
    let nes = replay.state_at(frame);
    // The buttons of the line that led to this frame (none at power-on).
    let buttons = frame
        .checked_sub(1)
        .map_or(Buttons::NONE, |i| replay.buttons_at(i));
    Ok(Json(serde_json::json!({
        "frame": NesFrame::from_nes(&nes, None),
        "buttons": held_buttons(buttons),
        "past_input": frame > replay.input_frames,
        "note": replay
            .lag_note
            .as_ref()
            .filter(|(from, _)| frame >= *from)
            .map(|(_, text)| text),
        "state": decoded(&nes),
    })))
}

/// The buttons held, by name (for the controller display).
fn held_buttons(b: Buttons) -> serde_json::Value {
    let held = |bit: Buttons| b.bits() & bit.bits() != 0;
    serde_json::json!({
        "left": held(Buttons::LEFT), "right": held(Buttons::RIGHT),
        "up": held(Buttons::UP), "down": held(Buttons::DOWN),
        "a": held(Buttons::A), "b": held(Buttons::B),
        "select": held(Buttons::SELECT), "start": held(Buttons::START),
    })
}

fn play_state_name(state: PlayState) -> &'static str {
    match state {
        PlayState::GameOver => "game over",
        PlayState::Active => "piece falling",
        PlayState::Lock => "piece locking",
        PlayState::CheckRows => "checking rows",
        PlayState::LineClearAnimation => "line-clear animation",
        PlayState::UpdateLines => "counting lines",
        PlayState::BTypeGoalCheck => "B-type goal check",
        PlayState::ReceiveGarbage => "receiving garbage",
        PlayState::Spawn => "next piece appearing",
        PlayState::Curtain => "game-over curtain",
        PlayState::Noop | PlayState::IncrementPlayState | PlayState::Other(_) => "between states",
    }
}

/// The game's variables in a player's terms: numbers as numbers (not BCD), pieces by letter.
fn decoded(nes: &Nes) -> serde_json::Value {
    let mut state = serde_json::json!({
        "screen": NesFrame::from_nes(nes, None).mode,
        "game type": match nes.game_type() {
            GameType::A => "A-type",
            GameType::B => "B-type",
        },
        "frame counter": nes.frame_counter(),
        "random seed": format!("{:04X}", nes.rng_seed()),
    });
    if nes.game_mode() == GameMode::Play {
        let (x, y) = nes.piece_position();
        let extra = serde_json::json!({
            "state": play_state_name(nes.play_state()),
            "piece": nes
                .last_piece()
                .map_or_else(|| "none".to_owned(), |p| orientation_name(p.orientation.id())),
            "column (x)": x,
            "row (y)": y,
            "next": nes
                .next_piece()
                .map_or_else(|| "none".to_owned(), |p| p.letter().to_string()),
            "level": nes.level(),
            "score": nes.score(),
            "lines": nes.lines(),
            "fall timer": nes.fall_timer(),
            "DAS charge": nes.das_counter(),
            "soft drop timer": nes.soft_drop_counter(),
            "push-down points": nes.push_down_points(),
        });
        if let (Some(s), Some(e)) = (state.as_object_mut(), extra.as_object()) {
            s.extend(e.clone());
        }
    }
    state
}
