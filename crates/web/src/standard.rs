//! Standard Tetris (Colin Fahey's rules): watch an AI or play with the keyboard, over a
//! WebSocket. Each connection owns one game on a blocking thread, run at the game's own pace
//! (`iteration_delay` of its level, scaled by the speed when watching); like the NES view, the
//! game ends with the connection.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket};
use axum::extract::{Query, State, WebSocketUpgrade};
use axum::response::Response;
use playfield_ai::standard::{Evaluator, MoveModel, Player, PlayerConfig};
use playfield_standard::{
    Game, Iteration, PieceSource, STANDARD_HEIGHT, WIDTH, game_seed, iteration_delay,
};
use serde::Deserialize;
use tokio::sync::mpsc;

use crate::{ApiError, AppState, Counters, LiveGame};

/// What the page asks for.
#[derive(Clone, Debug, Deserialize)]
pub struct StandardQuery {
    /// `watch` (an AI plays) or `play` (the keyboard).
    pub mode: Option<String>,
    /// The AI: dellacherie, el-tetris, bcts.
    pub ai: Option<String>,
    /// Seed of the piece sequence.
    pub seed: Option<u64>,
    /// Initial level 1-10 (Fahey's levels).
    pub level: Option<u8>,
    /// Speed for watching (multiple of the game's own pace).
    pub speed: Option<f64>,
}

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

struct Settings {
    game: Game,
    player: Option<Player>,
    ai_name: String,
    speed: f64,
}

impl StandardQuery {
    fn settings(&self) -> Result<Settings, ApiError> {
        let level = self.level.unwrap_or(1);
        let speed = self.speed.unwrap_or(1.0);
        if !(1.0 / 16.0..=1024.0).contains(&speed) {
            return Err(ApiError::bad_request(format!(
                "speed {speed} is out of range: 1/16 to 1024"
            )));
        }
        let ai_name = self.ai.clone().unwrap_or_else(|| "dellacherie".to_owned());
        let player = match self.mode.as_deref().unwrap_or("watch") {
            "watch" => {
                let evaluator: Evaluator = ai_name.parse().map_err(
                    |e: playfield_ai::standard::evaluator::UnknownEvaluator| {
                        ApiError::bad_request(e.to_string())
                    },
                )?;
                Some(Player::new(PlayerConfig::new(
                    evaluator,
                    MoveModel::Standard,
                )))
            }
            "play" => None,
            other => {
                return Err(ApiError::bad_request(format!(
                    "unknown mode {other:?}: expected watch or play"
                )));
            }
        };
        let game = Game::new(
            STANDARD_HEIGHT,
            level,
            PieceSource::random(game_seed(self.seed.unwrap_or(1), 0)),
        )
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
        Ok(Settings {
            game,
            player,
            ai_name,
            speed,
        })
    }
}

/// `GET /ws/standard?mode=watch|play&ai=..&seed=..&level=..&speed=..`.
///
/// # Errors
/// A 400 with the reason when a setting is wrong (before the upgrade).
pub async fn websocket(
    State(state): State<AppState>,
    Query(query): Query<StandardQuery>,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let settings = query.settings()?;
    state.counters.admit()?;
    Ok(ws.on_upgrade(move |socket| session(socket, settings, state.counters.clone())))
}

async fn session(mut socket: WebSocket, mut settings: Settings, counters: Arc<Counters>) {
    let game = std::mem::replace(
        &mut settings.game,
        Game::new(STANDARD_HEIGHT, 1, PieceSource::alternating_sz()).expect("a valid game"),
    );
    let (frames_tx, mut frames_rx) = mpsc::channel::<String>(2);
    let (control_tx, control_rx) = mpsc::unbounded_channel::<Control>();
    let live = LiveGame::start(counters, |c| &c.standard_games);
    tokio::task::spawn_blocking(move || {
        let _live = live;
        run(settings, game, &frames_tx, control_rx);
    });
    loop {
        tokio::select! {
            frame = frames_rx.recv() => {
                let Some(frame) = frame else { break };
                if socket.send(Message::Text(frame.into())).await.is_err() {
                    break;
                }
            }
            message = socket.recv() => match message {
                Some(Ok(Message::Text(text))) => {
                    if let Ok(c) = serde_json::from_str::<Control>(&text) {
                        let _ = control_tx.send(c);
                    }
                }
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(_)) => {}
            }
        }
    }
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
        "game_over": game.game_over().map(|e| format!("{e:?}")),
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
                Ok(Control::Speed(x)) if (1.0 / 16.0..=1024.0).contains(&x) => speed = x,
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
pub async fn check(
    Query(query): Query<StandardQuery>,
) -> Result<axum::Json<serde_json::Value>, ApiError> {
    query.settings()?;
    Ok(axum::Json(serde_json::json!({ "ok": true })))
}
