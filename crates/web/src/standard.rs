//! Standard Tetris (Colin Fahey's rules): watch an AI or play with the keyboard, over a
//! WebSocket. Each connection owns one game on a blocking thread, run at the game's own pace
//! (`iteration_delay` of its level, scaled by the speed when watching); like the NES view, the
//! game ends with the connection.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::WebSocket;
use axum::extract::{State, WebSocketUpgrade};
use axum::response::Response;
use playfield_ai::standard::{Evaluator, MoveModel, Player, PlayerConfig};
use playfield_standard::{
    Game, GameOver, Iteration, PieceSource, STANDARD_HEIGHT, WIDTH, game_seed, iteration_delay,
};
use serde::Deserialize;
use tokio::sync::mpsc;

use crate::fields::Fields;
use crate::session;
use crate::{ApiError, AppState, Counters, LiveGame};

/// A message from the page.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum Control {
    /// Translate left.
    Left,
    /// Translate right.
    Right,
    /// Rotate counter-clockwise.
    Rotate,
    /// Drop.
    Drop,
    /// Pause or resume.
    Pause(bool),
    /// Watching speed.
    Speed(f64),
}

impl session::CheckControl for Control {
    fn problem(&self) -> Option<String> {
        match self {
            Control::Speed(x) => session::speed_problem(*x, &SPEED_RANGE),
            _ => None,
        }
    }
}

struct Settings {
    game: Game,
    player: Option<Player>,
    ai_name: String,
    speed: f64,
}

/// The watching speeds accepted (multiples of the game's own pace).
const SPEED_RANGE: std::ops::RangeInclusive<f64> = 1.0 / 16.0..=1024.0;

/// The checked settings of a request: `mode`, `ai`, `seed`, `level`, `speed`.
fn settings(fields: &Fields) -> Result<Settings, ApiError> {
    let mode = fields.text("mode", "Mode", "watch")?;
    let ai_name = fields.text("ai", "AI", "dellacherie")?;
    let seed = fields.integer("seed", "Seed", 0..=u64::MAX, Some(1))?;
    let level = fields.byte("level", "Level", 1..=10, Some(1))?;
    let speed = fields.number("speed", "Speed", SPEED_RANGE, 1.0)?;
    let player = match mode.as_str() {
        "watch" => {
            let evaluator: Evaluator = ai_name.parse().map_err(
                |e: playfield_ai::standard::evaluator::UnknownEvaluator| {
                    ApiError::field("ai", e.to_string())
                },
            )?;
            Some(Player::new(PlayerConfig::new(
                evaluator,
                MoveModel::Standard,
            )))
        }
        "play" => None,
        other => {
            return Err(ApiError::field(
                "mode",
                format!("Mode {other:?} is not one of: watch, play"),
            ));
        }
    };
    let game = Game::new(
        STANDARD_HEIGHT,
        level,
        PieceSource::random(game_seed(seed, 0)),
    )
    .map_err(|e| ApiError::field("level", e.to_string()))?;
    Ok(Settings {
        game,
        player,
        ai_name,
        speed,
    })
}

/// Why the game ended, in words.
fn end_reason(end: GameOver) -> &'static str {
    match end {
        GameOver::SpawnBlocked => "the stack blocks where the next piece appears",
        GameOver::NoPlacement => "the next piece fits nowhere at the top",
        GameOver::SequenceEnded => "the piece sequence ran out",
    }
}

/// `GET /ws/standard?mode=watch|play&ai=..&seed=..&level=..&speed=..`.
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
    Ok(ws.on_upgrade(move |socket| session(socket, settings, state.counters.clone())))
}

async fn session(socket: WebSocket, mut settings: Settings, counters: Arc<Counters>) {
    let game = std::mem::replace(
        &mut settings.game,
        Game::new(STANDARD_HEIGHT, 1, PieceSource::alternating_sz()).expect("a valid game"),
    );
    let live = LiveGame::start(counters, |c| &c.standard_games);
    session::run(socket, 2, live, move |frames, controls| {
        run(settings, game, &frames, controls);
    })
    .await;
}

fn snapshot(game: &Game, settings: &Settings, paused: bool, speed: f64) -> String {
    let board = game.board();
    let height = board.height();
    // Rows from the top, '1' = occupied.
    let cells: String = (0..height)
        .rev()
        .flat_map(|y| (0..WIDTH).map(move |x| if board.cell(x, y) { '1' } else { '0' }))
        .collect();
    let piece = game
        .current()
        .map(|p| p.cells().map(|(x, y)| [x, height as i32 - 1 - y]).to_vec());
    let next = game.next().map(|n| {
        n.shape(0)
            .cells
            .map(|(dx, dy)| [i32::from(dx), -i32::from(dy)])
            .to_vec()
    });
    serde_json::json!({
        "width": WIDTH,
        "height": height,
        "board": cells,
        "piece": piece,
        "piece_kind": game.current().map(|p| p.kind.letter().to_string()),
        "next": next,
        "next_kind": game.next().map(|n| n.letter().to_string()),
        "score": game.score(),
        "lines": game.lines(),
        "level": game.level(),
        "game_over": game.game_over().map(end_reason),
        "paused": paused,
        "speed": speed,
        "who": if settings.player.is_some() { settings.ai_name.as_str() } else { "you" },
    })
    .to_string()
}

fn run(
    settings: Settings,
    mut game: Game,
    frames: &mpsc::Sender<String>,
    mut controls: mpsc::UnboundedReceiver<Control>,
) {
    let mut paused = false;
    let mut speed = settings.speed;
    // §5.5: a full free-fall delay passes before the first piece appears.
    let mut next_tick = Instant::now() + iteration_delay(game.level());
    let mut dirty = true;
    loop {
        loop {
            match controls.try_recv() {
                Ok(Control::Pause(p)) => paused = p,
                // Out-of-range speeds were answered and not passed on (`problem`).
                Ok(Control::Speed(x)) => speed = x,
                Ok(c) if settings.player.is_none() && !paused && game.game_over().is_none() => {
                    match c {
                        Control::Left => {
                            game.left();
                        }
                        Control::Right => {
                            game.right();
                        }
                        Control::Rotate => {
                            game.rotate();
                        }
                        // §5.5: after a landing a full delay passes before the next piece.
                        Control::Drop if game.drop().is_some() => {
                            next_tick = Instant::now() + iteration_delay(game.level());
                        }
                        _ => {}
                    }
                }
                Ok(_) => {}
                Err(mpsc::error::TryRecvError::Empty) => break,
                Err(mpsc::error::TryRecvError::Disconnected) => return,
            }
            dirty = true;
        }
        if !paused && game.game_over().is_none() && Instant::now() >= next_tick {
            match &settings.player {
                // As the terminal view: the AI waits for the piece's first fall, then rotates,
                // slides and drops at once.
                Some(player) if game.current().is_some_and(|p| p.y == game.spawn_y()) => {
                    if player.play_piece(&mut game).is_err() {
                        // A planned placement the game refused: stop rather than play on wrongly.
                        return;
                    }
                }
                _ => {
                    let _: Iteration = game.iteration();
                }
            }
            let delay = iteration_delay(game.level());
            next_tick = Instant::now()
                + if settings.player.is_some() {
                    delay.div_f64(speed)
                } else {
                    delay
                };
            dirty = true;
        }
        if dirty {
            match frames.try_send(snapshot(&game, &settings, paused, speed)) {
                Ok(()) => dirty = false,
                Err(mpsc::error::TrySendError::Full(_)) => {}
                Err(mpsc::error::TrySendError::Closed(_)) => return,
            }
        } else if frames.is_closed() {
            return;
        }
        let wait = next_tick
            .saturating_duration_since(Instant::now())
            .min(Duration::from_millis(10));
        std::thread::sleep(wait);
    }
}

/// `GET /api/standard/check?...`: the WebSocket's checks over plain HTTP (for the page's message).
///
/// # Errors
/// A 400 with the reason.
pub async fn check(fields: Fields) -> Result<axum::Json<serde_json::Value>, ApiError> {
    settings(&fields)?;
    Ok(axum::Json(serde_json::json!({ "ok": true })))
}
