//! Play: NES Tetris played by a person in the browser, on the engine itself (so with the game's
//! exact rules: gravity, DAS, rotation, the randomizer, scoring).
//!
//! The menus are gone through for the chosen level and seed as in Watch; then each frame, at the
//! NES's 60.0988 Hz, the engine steps with the buttons the page holds. A press that comes and
//! goes between two frames still counts for one frame (a quick tap is not lost). On request the
//! server shows where a player would lock the current piece (a ghost), and sends the game so far
//! as an .fm2 movie, which `playfield nes replay` and the Replay view play back exactly.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::WebSocket;
use axum::extract::{State, WebSocketUpgrade};
use axum::response::Response;
use playfield_ai::nes::game::start_game;
use playfield_ai::nes::{GameConfig, InputModel, PieceState, Player, Situation, Workspace};
use playfield_nes::fm2::Movie;

use playfield_nes::{Buttons, Nes, PlayState};
use serde::Deserialize;
use tokio::sync::{Semaphore, mpsc};

use crate::fields::Fields;
use crate::nes_frame::NesFrame;
use crate::session;
use crate::watch::NTSC_FPS;
use crate::{ApiError, AppState, Counters, LiveGame};

/// A checked play request.
#[derive(Clone, Debug)]
pub struct PlaySettings {
    /// The game (level and seed).
    pub config: GameConfig,
    /// The player whose suggestion the ghost shows.
    pub advisor: Player,
}

/// The settings of a request: `level`, `seed`, `player` (the ghost's).
///
/// # Errors
/// A 400 naming the field.
pub fn settings(fields: &Fields) -> Result<PlaySettings, ApiError> {
    let level = fields.byte("level", "Start level", 0..=19, Some(9))?;
    let seed = fields.integer("seed", "Seed", 0..=u64::MAX, Some(1))?;
    let name = fields.text("player", "Player", crate::players::DEFAULT)?;
    // The suggestion assumes a 30 Hz tapper with DAS, the preview seen at once.
    let model = InputModel::new("X.", true, 0).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let advisor = crate::players::by_name(name.trim(), model)?;
    Ok(PlaySettings {
        config: GameConfig::a_type(level, seed),
        advisor,
    })
}

/// A message from the page.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Control {
    /// The buttons held now (bits as the NES reads them: A B Select Start Up Down Left Right
    /// from the high bit).
    Buttons(u8),
    /// Show or hide the ghost.
    Ghost(bool),
    /// Send the game so far as an .fm2 movie.
    Save,
}

impl session::CheckControl for Control {}

/// `GET /ws/play?level=..&seed=..&player=..`.
///
/// # Errors
/// A 400 naming the bad field (before the upgrade).
pub async fn websocket(
    State(state): State<AppState>,
    fields: Fields,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let settings = settings(&fields)?;
    state.counters.admit()?;
    Ok(ws.on_upgrade(move |socket| {
        session(
            socket,
            settings,
            state.clone(),
            state.counters.clone(),
            state.searches.clone(),
        )
    }))
}

/// `GET /api/play/check?...`: the WebSocket's checks over HTTP (for the page's message).
///
/// # Errors
/// A 400 naming the bad field.
pub async fn check(fields: Fields) -> Result<axum::Json<serde_json::Value>, ApiError> {
    settings(&fields)?;
    Ok(axum::Json(serde_json::json!({ "ok": true })))
}

async fn session(
    socket: WebSocket,
    settings: PlaySettings,
    state: AppState,
    counters: Arc<Counters>,
    searches: Arc<Semaphore>,
) {
    let live = LiveGame::start(counters, |c| &c.play_games);
    let runtime = tokio::runtime::Handle::current();
    session::run(socket, 4, live, move |frames, controls| {
        let permit = || session::search_permit(&runtime, &searches, &frames);
        play(&settings, &state, &frames, controls, permit);
    })
    .await;
}

/// Where `advisor` would lock the piece now under control.
fn suggestion(advisor: &Player, ws: &mut Workspace, nes: &Nes) -> Option<[[i16; 2]; 4]> {
    let situation = Situation {
        level: nes.level(),
        lines: nes.line_count(),
        game_type: nes.game_type(),
        double_speed_level: None,
        line_cap: None,
        unsafe_clears: 0,
        score_maxed: false,
    };
    let start = PieceState::from_nes(nes, 0)?;
    let d = advisor.decide(ws, &nes.board(), start, situation, nes.next_piece())?;
    let t = d.placement;
    Some(crate::nes_frame::orientation_cells(
        t.orientation,
        i16::from(t.x),
        i16::from(t.y),
    ))
}

fn play<P>(
    settings: &PlaySettings,
    state: &AppState,
    frames: &mpsc::Sender<String>,
    mut controls: mpsc::UnboundedReceiver<Control>,
    permit: impl Fn() -> P,
) {
    let Some((mut nes, mut input)) = start_game(&settings.config) else {
        let _ =
            frames.try_send(serde_json::json!({ "error": "the game could not start" }).to_string());
        return;
    };
    // The menus never reach the levels the ROM's program is run at: it is given here.
    state.give_rom(&mut nes);
    let mut top_level = 0u8;
    let mut ws = Workspace::new();
    let (mut held, mut tapped) = (0u8, 0u8);
    let (mut ghost_on, mut ghost) = (false, None);
    let mut was_active = false;
    let mut finished: Option<String> = None;
    let started = Instant::now();
    let first = nes.frame();
    loop {
        let mut save = false;
        loop {
            match controls.try_recv() {
                Ok(Control::Buttons(b)) => {
                    tapped |= b & !held;
                    held = b;
                }
                Ok(Control::Ghost(on)) => {
                    ghost_on = on;
                    ghost = None;
                    was_active = false;
                }
                Ok(Control::Save) => save = true,
                Err(mpsc::error::TryRecvError::Empty) => break,
                Err(mpsc::error::TryRecvError::Disconnected) => return,
            }
        }
        let due = first + (started.elapsed().as_secs_f64() * NTSC_FPS) as u64;
        let mut stepped = false;
        if finished.is_none() && nes.frame() < due {
            let buttons = Buttons::from_bits_retain(held | tapped);
            tapped = 0;
            nes.step(buttons);
            input.push(buttons);
            stepped = true;
            top_level = top_level.max(nes.level());
            if let Some(why) = nes.unsupported() {
                finished = Some(format!("the engine stopped: {why}"));
            } else if let Some(crash) = nes.crash() {
                finished = Some(format!("the game crashed: {crash}"));
            }
        }
        let active = nes.play_state() == PlayState::Active;
        if ghost_on && active && !was_active {
            let _permit = permit();
            ghost = suggestion(&settings.advisor, &mut ws, &nes);
        }
        if !active {
            ghost = None;
        }
        was_active = active;
        if stepped || save {
            let mut frame = NesFrame::from_nes(&nes, None);
            if active {
                frame.target = ghost;
            }
            let mut message = serde_json::json!({
                "frame": frame,
                "finished": finished,
                "buttons": crate::analyse::button_letters(Buttons::from_bits_retain(held)),
                "note": crate::lag_note(&nes, top_level),
            });
            if save {
                message["fm2"] =
                    serde_json::Value::String(Movie::new(input.iter().copied()).to_fm2());
                message["fm2_frames"] = serde_json::json!(input.len());
            }
            match frames.try_send(message.to_string()) {
                Ok(()) | Err(mpsc::error::TrySendError::Full(_)) if !save => {}
                Ok(()) => {}
                // The save must arrive: wait for room.
                Err(mpsc::error::TrySendError::Full(m)) => {
                    if frames.blocking_send(m).is_err() {
                        return;
                    }
                }
                Err(mpsc::error::TrySendError::Closed(_)) => return,
            }
        } else if frames.is_closed() {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}
