//! Replay: an uploaded .fm2 movie played from power-on, any frame shown with its traced state.
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
use axum::extract::{Path, Query, State};
use playfield_nes::fm2::{InputLine, Movie};
use playfield_nes::trace::TraceFrame;
use playfield_nes::{Events, Nes};
use serde::{Deserialize, Serialize};

use crate::nes_frame::NesFrame;
use crate::{ApiError, AppState};

/// Frames between two kept engine states.
pub const CHECKPOINT_FRAMES: usize = 1024;
/// Uploaded movies kept at once (the oldest goes first).
pub const MAX_REPLAYS: usize = 8;

/// A replayed movie.
#[derive(Debug)]
pub struct Replay {
    /// The uploaded file's name.
    pub name: String,
    lines: Vec<InputLine>,
    /// Engine states at frames 0, CHECKPOINT_FRAMES, 2 × CHECKPOINT_FRAMES, ...
    checkpoints: Vec<Nes>,
    /// Frames that can be shown (the movie's length, or where the engine stopped).
    pub frames: u64,
    /// Why the engine stopped before the end, if it did.
    pub stopped: Option<String>,
    /// The state at the last frame.
    pub last: NesFrame,
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
    /// Why the engine stopped early, if it did (shown as an error).
    pub stopped: Option<String>,
    /// Score at the last frame.
    pub score: u32,
    /// Lines at the last frame.
    pub lines: u32,
    /// Level at the last frame.
    pub level: u8,
}

impl Replay {
    /// Parses and replays `text` (an .fm2 movie named `name`).
    ///
    /// # Errors
    /// The parser's error, prefixed "in NAME: " as the CLI prints it, or a PAL movie.
    pub fn new(name: &str, text: &str) -> Result<Replay, String> {
        let movie = Movie::parse(text).map_err(|e| format!("in {name}: {e}"))?;
        if movie.pal() {
            return Err(format!("{name} is a PAL movie; the USA ROM is NTSC"));
        }
        let mut nes = Nes::power_on();
        let mut checkpoints = vec![nes.clone()];
        let mut stopped = None;
        for (i, line) in movie.lines.iter().enumerate() {
            let events = nes.step_line(line);
            if events.has(Events::UNSUPPORTED) {
                stopped = Some(format!(
                    "the engine stopped at frame {}: {}",
                    nes.frame(),
                    nes.unsupported()
                        .map_or_else(|| "unsupported state".to_owned(), |why| why.to_string())
                ));
                break;
            }
            if (i + 1) % CHECKPOINT_FRAMES == 0 {
                checkpoints.push(nes.clone());
            }
        }
        Ok(Replay {
            name: name.to_owned(),
            frames: nes.frame(),
            last: NesFrame::from_nes(&nes, None),
            lines: movie.lines,
            checkpoints,
            stopped,
        })
    }

    /// The engine after `frame` input lines.
    #[must_use]
    pub fn state_at(&self, frame: u64) -> Nes {
        let frame = frame.min(self.frames) as usize;
        let at = (frame / CHECKPOINT_FRAMES).min(self.checkpoints.len() - 1);
        let mut nes = self.checkpoints[at].clone();
        for line in &self.lines[at * CHECKPOINT_FRAMES..frame] {
            nes.step_line(line);
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

/// The upload's query: the file's name (for messages).
#[derive(Debug, Deserialize)]
pub struct UploadQuery {
    /// The file name.
    pub name: Option<String>,
}

/// `POST /api/replay?name=NAME` with the movie as the body (at most 16 MiB).
///
/// # Errors
/// A 400 with the parser's message for a body that is not an NTSC .fm2 movie.
pub async fn upload(
    State(state): State<AppState>,
    Query(query): Query<UploadQuery>,
    body: Bytes,
) -> Result<Json<ReplaySummary>, ApiError> {
    let name: String = query
        .name
        .unwrap_or_else(|| "movie.fm2".to_owned())
        .chars()
        .filter(|c| !c.is_control())
        .take(200)
        .collect();
    let text = String::from_utf8(body.to_vec())
        .map_err(|e| ApiError::bad_request(format!("in {name}: not UTF-8 text ({e})")))?;
    let replay = tokio::task::spawn_blocking(move || Replay::new(&name, &text))
        .await
        .map_err(|e| ApiError::bad_request(format!("replay failed: {e}")))?
        .map_err(ApiError::bad_request)?;
    let summary = ReplaySummary {
        id: 0,
        name: replay.name.clone(),
        frames: replay.frames,
        stopped: replay.stopped.clone(),
        score: replay.last.score,
        lines: replay.last.lines,
        level: replay.last.level,
    };
    let id = state.replays.insert(replay);
    Ok(Json(ReplaySummary { id, ..summary }))
}

/// `GET /api/replay/{id}/frame/{frame}`: the screen and the traced variables after `frame`
/// input lines.
///
/// # Errors
/// 404 for an unknown (or expired) movie, 400 for a frame past its end.
pub async fn frame(
    State(state): State<AppState>,
    Path((id, frame)): Path<(u64, u64)>,
) -> Result<Json<serde_json::Value>, ApiError> {
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
    let trace: serde_json::Value =
        serde_json::from_str(&TraceFrame::from_ram(nes.frame(), &nes.ram()).to_json_line())
            .unwrap_or(serde_json::Value::Null);
    Ok(Json(serde_json::json!({
        "frame": NesFrame::from_nes(&nes, None),
        "trace": trace,
    })))
}
