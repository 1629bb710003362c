//! Watch: the NES AI plays a game live; every shown frame goes to the page over a WebSocket.
//!
//! Each connection owns one game, stepped on a blocking thread (a search for a piece takes tens
//! of milliseconds) at the chosen speed. Frames travel through a small bounded channel: a slow
//! page gets fewer frames, never a growing queue. When the connection closes, the channel closes,
//! and the game's thread ends and frees the game.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::WebSocket;
use axum::extract::{State, WebSocketUpgrade};
use axum::response::Response;
use playfield_ai::nes::{GameConfig, Pilot, Player};
use playfield_nes::{Events, GameMode, Nes};
use serde::Deserialize;
use tokio::sync::{Semaphore, mpsc};

use crate::fields::Fields;
use crate::nes_frame::NesFrame;
use crate::session;
use crate::{ApiError, AppState, Counters, LiveGame};

/// NTSC NES frames per second (the PPU's 60.0988 Hz).
pub const NTSC_FPS: f64 = 60.0988;

/// Frames the menus may take before the first piece (they take well under 5,000 even with the
/// longest seeded wait); the view skips them.
const MENU_FRAMES_MAX: u64 = 20_000;

/// A checked watch request.
#[derive(Clone, Debug)]
pub struct WatchSettings {
    /// The game.
    pub config: GameConfig,
    /// The player.
    pub player: Player,
    /// Initial speed.
    pub speed: f64,
}

/// The speeds the page may ask for.
const SPEED_RANGE: std::ops::RangeInclusive<f64> = 1.0 / 64.0..=1024.0;

/// The checked settings of a watch request: `level`, `seed`, `player`, `input`, `das`,
/// `reaction`, `speed`.
///
/// # Errors
/// A 400 naming the field that is wrong and its range.
pub fn settings(fields: &Fields) -> Result<WatchSettings, ApiError> {
    let level = fields.byte("level", "Start level", 0..=19, Some(18))?;
    let seed = fields.integer("seed", "Seed", 0..=u64::MAX, Some(1))?;
    // As `nes bench`'s default format plays the unmodified game: past 999,999 the score player
    // plays to survive.
    let config = GameConfig {
        survive_at_max_score: true,
        ..GameConfig::a_type(level, seed)
    };
    config
        .validate()
        .map_err(|e| ApiError::field("level", e.to_string()))?;
    let model = crate::players::input_model(fields, 18)?;
    let name = fields.text("player", "Player", crate::players::DEFAULT)?;
    let player = crate::players::by_name(name.trim(), model)?;
    let speed = fields.number("speed", "Speed", SPEED_RANGE, 1.0)?;
    Ok(WatchSettings {
        config,
        player,
        speed,
    })
}

/// A message from the page.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Control {
    /// Set the speed (multiple of real time).
    Speed(f64),
    /// Pause or resume.
    Pause(bool),
    /// While paused: run this many frames.
    Step(u32),
}

impl session::CheckControl for Control {
    fn problem(&self) -> Option<String> {
        match self {
            Control::Speed(x) => session::speed_problem(*x, &SPEED_RANGE),
            _ => None,
        }
    }
}

/// `GET /ws/watch?level=..&seed=..&player=..&input=..&das=..&reaction=..&speed=..`.
///
/// # Errors
/// A 400 with the reason when a setting is wrong (before the upgrade).
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
            state.power_on(),
            state.counters.clone(),
            state.searches.clone(),
        )
    }))
}

/// Runs one connection: the game on a blocking thread, frames out, controls in (a control that
/// cannot be read is answered with an error). Each search waits its turn for one of the server's
/// search permits.
async fn session(
    socket: WebSocket,
    settings: WatchSettings,
    nes: Nes,
    counters: Arc<Counters>,
    searches: Arc<Semaphore>,
) {
    let live = LiveGame::start(counters, |c| &c.watch_games);
    let runtime = tokio::runtime::Handle::current();
    session::run(socket, 2, live, move |frames, controls| {
        let permit = || session::search_permit(&runtime, &searches, &frames);
        play(settings, nes, &frames, controls, permit);
    })
    .await;
}

/// Plays the game on `nes` (powered on), sending frames, until the page goes away.
fn play<P>(
    settings: WatchSettings,
    mut nes: Nes,
    frames: &mpsc::Sender<String>,
    mut controls: mpsc::UnboundedReceiver<Control>,
    permit: impl Fn() -> P,
) {
    let mut pilot = Pilot::new(&settings.config, settings.player.clone());
    Pilot::prepare(&mut nes);
    // The menus carry nothing to watch (and wait up to 17 s for the seed): skip them.
    while nes.game_mode() != GameMode::Play && nes.frame() < MENU_FRAMES_MAX {
        let buttons = pilot.buttons(&nes);
        nes.step(buttons);
    }
    let mut speed = settings.speed;
    let mut paused = false;
    let mut steps = 0u64;
    let mut finished: Option<String> = None;
    let mut anchor = (Instant::now(), nes.frame());
    let mut last_sent: Option<(u64, bool, Option<String>)> = None;
    let mut last_buttons = playfield_nes::Buttons::NONE;
    let mut stats = crate::replay::PlayStats::default();
    let mut top_level = 0u8;
    // Stats go out with the next frame sent after they change (frames may be skipped).
    let (mut stats_version, mut stats_sent) = (1u64, 0u64);
    loop {
        loop {
            match controls.try_recv() {
                Ok(Control::Speed(x)) if SPEED_RANGE.contains(&x) => speed = x,
                Ok(Control::Speed(_)) => {}
                Ok(Control::Pause(p)) => paused = p,
                Ok(Control::Step(n)) => steps += u64::from(n.min(10_000)),
                Err(mpsc::error::TryRecvError::Empty) => break,
                Err(mpsc::error::TryRecvError::Disconnected) => return,
            }
            anchor = (Instant::now(), nes.frame());
        }
        let started = Instant::now();
        if finished.is_none() {
            let due = if paused {
                nes.frame() + std::mem::take(&mut steps)
            } else {
                anchor.1 + (anchor.0.elapsed().as_secs_f64() * NTSC_FPS * speed) as u64
            };
            // At most ~15 ms of stepping between two frames sent: the page stays live at any
            // speed, and a busy machine runs slower instead of queueing.
            while nes.frame() < due && started.elapsed() < Duration::from_millis(15) {
                let buttons = pilot.buttons_gated(&nes, &permit);
                last_buttons = buttons;
                let events = nes.step(buttons);
                top_level = top_level.max(nes.level());
                if events.spawned() || events.cleared() > 0 {
                    stats.record(events, &nes);
                    stats_version += 1;
                }
                if events.has(Events::TOP_OUT) {
                    finished = Some(format!(
                        "game over: the stack reached the top after {} lines",
                        nes.lines()
                    ));
                    break;
                }
                if let Some(why) = nes.unsupported() {
                    finished = Some(format!("the engine stopped: {why}"));
                    break;
                }
                if let Some(crash) = nes.crash() {
                    finished = Some(format!("the game crashed: {crash}"));
                    break;
                }
            }
            if nes.frame() < due && !paused {
                // Fell behind: drop the debt rather than racing to repay it.
                anchor = (Instant::now(), nes.frame());
            }
        }
        let key = (nes.frame(), paused, finished.clone());
        if last_sent.as_ref() != Some(&key) {
            let frame = NesFrame::from_nes(&nes, pilot.target());
            let mut message = serde_json::json!({
                "frame": frame,
                "speed": speed,
                "paused": paused,
                "finished": finished,
                "player": settings.player.name,
                "buttons": crate::analyse::button_letters(last_buttons),
                "das": nes.das_counter(),
                "note": crate::lag_note(&nes, top_level),
                "crash_risk": pilot.crash_risk(),
            });
            if stats_sent != stats_version {
                message["stats"] = serde_json::to_value(&stats).unwrap_or_default();
            }
            match frames.try_send(message.to_string()) {
                Ok(()) => {
                    last_sent = Some(key);
                    stats_sent = stats_version;
                }
                // The page is behind: skip this frame, the next one supersedes it.
                Err(mpsc::error::TrySendError::Full(_)) => {}
                Err(mpsc::error::TrySendError::Closed(_)) => return,
            }
        } else if frames.is_closed() {
            return;
        }
        let period = if paused || finished.is_some() {
            Duration::from_millis(30)
        } else {
            Duration::from_secs_f64(1.0 / 60.0)
        };
        std::thread::sleep(period.saturating_sub(started.elapsed()));
    }
}

/// `GET /api/watch/check?...`: the same checks as the WebSocket, answered over plain HTTP so the
/// page can show why a setting is refused.
///
/// # Errors
/// A 400 with the reason.
pub async fn check(fields: Fields) -> Result<axum::Json<serde_json::Value>, ApiError> {
    settings(&fields)?;
    Ok(axum::Json(serde_json::json!({ "ok": true })))
}
