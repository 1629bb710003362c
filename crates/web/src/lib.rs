//! playfield in the browser: `playfield serve` starts an HTTP + WebSocket server (axum on tokio)
//! whose page, served from the binary itself (no CDN, works offline), shows six views:
//!
//! - **Watch** ([`watch`]): the NES AI plays live over a WebSocket, drawn in the game's look.
//! - **Replay** ([`replay`]): an uploaded .fm2 movie, frame by frame, with the traced state.
//! - **Analyse** ([`analyse`]): a board, a piece and its preview; the AI's placements ranked.
//! - **Minijong** ([`minijong`]): the Mahjong solitaire played with the mouse.
//! - **Play** ([`play`]): NES Tetris played in the browser on the engine, with a player's
//!   suggestion as a ghost and the game saved as an .fm2 movie.
//! - **Standard Tetris** ([`standard`]): watch an AI or play with the keyboard.
//!
//! The page's files are compiled in ([`assets`]); no request can read any other file.
//!
//! ```no_run
//! let config = playfield_web::ServeConfig::default(); // 127.0.0.1:8080
//! playfield_web::serve(&config).unwrap();
//! ```

pub mod analyse;
pub mod assets;
mod error;
pub mod fields;
pub mod minijong;
pub mod nes_frame;
pub mod play;
pub mod players;
pub mod replay;
mod session;
pub mod standard;
pub mod watch;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::Router;
use axum::extract::{DefaultBodyLimit, State};
use axum::routing::{get, post};
use playfield_nes::Nes;
use playfield_rom::EngineData;

pub use error::{ApiError, ServeError};

/// The largest upload (an .fm2 movie) or request body accepted: 16 MiB.
pub const MAX_UPLOAD_BYTES: usize = 16 * 1024 * 1024;

/// Where to listen, and the ROM the engines run on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServeConfig {
    /// Address to bind; 127.0.0.1 unless the user asks for another (the server has no
    /// authentication, so exposing it is the user's explicit choice).
    pub host: IpAddr,
    /// Port; 0 lets the system choose one.
    pub port: u16,
    /// The user's checked ROM (`playfield serve --rom`): every engine the server steps gets its
    /// program, which the lag model runs from level 100, and its demo tables. Without it lag
    /// frames and crashes are not modelled, and the pages say so from level 100.
    pub rom: Option<EngineData>,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8080,
            rom: None,
        }
    }
}

/// Games (NES watch plus Standard Tetris) the server plays at once; a connection beyond that gets a
/// 503 (each game holds a few megabytes of search buffers and a thread).
pub const MAX_LIVE_GAMES: usize = 512;

/// Counts of what the server holds, shared by the handlers (also served at `/api/stats`, which
/// the load test reads to check that closed connections free their games).
#[derive(Debug, Default)]
pub struct Counters {
    /// NES games being played for watch connections.
    pub watch_games: AtomicUsize,
    /// Standard Tetris games being played for open connections.
    pub standard_games: AtomicUsize,
    /// NES games played by people in the Play view.
    pub play_games: AtomicUsize,
}

/// Decrements a counter when a game ends, however it ends (connection closed, panic, ...).
pub(crate) struct LiveGame {
    counter: Arc<Counters>,
    which: fn(&Counters) -> &AtomicUsize,
}

impl Counters {
    /// Refuses a new game when [`MAX_LIVE_GAMES`] are running.
    ///
    /// # Errors
    /// A 503 saying so.
    pub fn admit(&self) -> Result<(), ApiError> {
        let live = self.watch_games.load(Ordering::SeqCst)
            + self.standard_games.load(Ordering::SeqCst)
            + self.play_games.load(Ordering::SeqCst);
        if live >= MAX_LIVE_GAMES {
            return Err(ApiError {
                status: axum::http::StatusCode::SERVICE_UNAVAILABLE,
                message: format!("the server is playing {live} games, its limit; try again later"),
                field: None,
            });
        }
        Ok(())
    }
}

impl LiveGame {
    pub(crate) fn start(counter: Arc<Counters>, which: fn(&Counters) -> &AtomicUsize) -> Self {
        which(&counter).fetch_add(1, Ordering::SeqCst);
        LiveGame { counter, which }
    }
}

impl Drop for LiveGame {
    fn drop(&mut self) {
        (self.which)(&self.counter).fetch_sub(1, Ordering::SeqCst);
    }
}

/// The state every handler shares.
#[derive(Clone, Debug)]
pub struct AppState {
    /// Live games.
    pub counters: Arc<Counters>,
    /// Uploaded movies, replayed.
    pub replays: Arc<replay::ReplayStore>,
    /// Permits for the AI's searches, one per core: with hundreds of games, searches take turns
    /// instead of all running at once, so every game's frames keep flowing between searches.
    pub searches: Arc<tokio::sync::Semaphore>,
    /// The ROM's parts the engines run on ([`ServeConfig::rom`]).
    pub rom: Option<EngineData>,
}

impl AppState {
    /// A powered-on engine with the ROM's program and demo tables when the server has them.
    #[must_use]
    pub fn power_on(&self) -> Nes {
        let mut nes = Nes::power_on();
        self.give_rom(&mut nes);
        nes
    }

    /// Gives `nes` the ROM's program and demo tables when the server has them.
    pub fn give_rom(&self, nes: &mut Nes) {
        if let Some(rom) = &self.rom {
            rom.give_to(nes);
        }
    }
}

/// How the pages tell the user to give the ROM, after "lag and crashes not modelled".
pub const NO_ROM_GIVEN: &str = "no ROM given to playfield serve";

/// The note a view shows once its game has reached `top_level` on an engine that does not model
/// lag or crashes (see `playfield_rom::lag_not_modelled_note`); `None` when there is none.
#[must_use]
pub fn lag_note(nes: &Nes, top_level: u8) -> Option<String> {
    playfield_rom::lag_not_modelled_note(nes.lag_modelled(), top_level, NO_ROM_GIVEN)
}

impl Default for AppState {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        AppState {
            counters: Arc::default(),
            replays: Arc::default(),
            searches: Arc::new(tokio::sync::Semaphore::new(cores)),
            rom: None,
        }
    }
}

/// The server's routes.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/assets/{name}", get(assets::asset))
        .route("/api/stats", get(stats))
        .route("/api/info", get(info))
        .route("/api/nes/pieces", get(nes_frame::pieces))
        .route("/api/players", get(players::list))
        .route("/api/nes/reference", get(nes_frame::reference))
        .route("/ws/watch", get(watch::websocket))
        .route("/api/watch/check", get(watch::check))
        .route("/api/replay", post(replay::upload))
        .route("/api/replay/{id}/frame/{frame}", get(replay::frame))
        .route("/api/analyse", post(analyse::handler))
        .route("/api/minijong/state", post(minijong::state))
        .route("/api/minijong/hint", post(minijong::hint))
        .route("/ws/play", get(play::websocket))
        .route("/api/play/check", get(play::check))
        .route("/ws/standard", get(standard::websocket))
        .route("/api/standard/check", get(standard::check))
        .fallback(assets::not_found)
        .layer(axum::middleware::from_fn(json_errors))
        .layer(DefaultBodyLimit::max(MAX_UPLOAD_BYTES))
        .with_state(state)
}

/// Makes every error answer `{"error": ...}`: the router's own (a method a route does not take,
/// a WebSocket route asked without the upgrade, a page file not found) come with an empty or
/// plain-text body, which the page cannot show as it shows the API's.
async fn json_errors(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::header;
    use axum::response::IntoResponse as _;
    let (method, path) = (request.method().clone(), request.uri().path().to_owned());
    let response = next.run(request).await;
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 64 * 1024)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&text).trim().to_owned();
    let message = if status == axum::http::StatusCode::METHOD_NOT_ALLOWED {
        let allowed = parts
            .headers
            .get(header::ALLOW)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        format!("{method} is not allowed on {path} (it takes {allowed})")
    } else if text.is_empty() {
        format!(
            "{} {}",
            status.as_u16(),
            status.canonical_reason().unwrap_or("error")
        )
    } else {
        text
    };
    let mut answer = (status, axum::Json(serde_json::json!({ "error": message }))).into_response();
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            answer.headers_mut().append(name, value.clone());
        }
    }
    answer
}

async fn stats(State(state): State<AppState>) -> axum::Json<serde_json::Value> {
    axum::Json(serde_json::json!({
        "watch_games": state.counters.watch_games.load(Ordering::SeqCst),
        "standard_games": state.counters.standard_games.load(Ordering::SeqCst),
        "play_games": state.counters.play_games.load(Ordering::SeqCst),
        "replays": state.replays.len(),
    }))
}

/// `GET /api/info`: what the server models. `lag_modelled` is false when it was started without
/// the ROM, whose program the lag model runs (`note` then says so).
async fn info(State(state): State<AppState>) -> axum::Json<serde_json::Value> {
    let modelled = state.rom.is_some();
    axum::Json(serde_json::json!({
        "lag_modelled": modelled,
        "note": (!modelled).then(|| format!("{} ({NO_ROM_GIVEN})", playfield_rom::LAG_NOT_MODELLED)),
    }))
}

/// A server bound to its address, not yet serving.
#[derive(Debug)]
pub struct BoundServer {
    listener: tokio::net::TcpListener,
    state: AppState,
}

impl BoundServer {
    /// Binds `config`'s address.
    ///
    /// # Errors
    /// When the address cannot be bound (in use, not allowed).
    pub async fn bind(config: &ServeConfig) -> Result<BoundServer, ServeError> {
        let addr = SocketAddr::new(config.host, config.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|reason| ServeError::Bind { addr, reason })?;
        Ok(BoundServer {
            listener,
            state: AppState {
                rom: config.rom.clone(),
                ..AppState::default()
            },
        })
    }

    /// The address actually bound (with the chosen port when the config said 0).
    ///
    /// # Errors
    /// When the socket cannot report it.
    pub fn local_addr(&self) -> Result<SocketAddr, ServeError> {
        self.listener.local_addr().map_err(ServeError::Io)
    }

    /// The shared state (live-game counters), for tests and monitoring.
    #[must_use]
    pub fn state(&self) -> AppState {
        self.state.clone()
    }

    /// Serves until the process ends.
    ///
    /// # Errors
    /// When accepting connections fails.
    pub async fn run(self) -> Result<(), ServeError> {
        axum::serve(self.listener, router(self.state))
            .await
            .map_err(ServeError::Io)
    }
}

/// `playfield serve`: binds, prints the address and serves until the process is stopped.
///
/// # Errors
/// When the runtime cannot start or the address cannot be bound.
pub fn serve(config: &ServeConfig) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Io)?;
    runtime.block_on(async {
        let server = BoundServer::bind(config).await?;
        println!("playfield serving on http://{}/", server.local_addr()?);
        server.run().await
    })
}

/// A server running on its own threads (for tests and embedding): bound at once, stopped when
/// the process ends.
#[derive(Debug)]
pub struct Background {
    /// The bound address.
    pub addr: SocketAddr,
    /// The shared state.
    pub state: AppState,
}

/// Starts a server on a background runtime and returns once it listens.
///
/// # Errors
/// When the runtime cannot start or the address cannot be bound.
pub fn start_background(config: &ServeConfig) -> Result<Background, ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Io)?;
    let server = runtime.block_on(BoundServer::bind(config))?;
    let background = Background {
        addr: server.local_addr()?,
        state: server.state(),
    };
    std::thread::spawn(move || {
        // The server lives as long as the process; an accept error ends it.
        if let Err(err) = runtime.block_on(server.run()) {
            eprintln!("playfield-web: {err}");
        }
    });
    Ok(background)
}
