//! A game's WebSocket session, as the Watch, Play and Standard Tetris views run it: the game on a
//! blocking thread that sends frames and reads controls, and the socket between it and the page.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket};
use serde::de::DeserializeOwned;
use tokio::runtime::Handle;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

use crate::LiveGame;

/// A control message's own check, once it is read: a value the game cannot use (a speed out of
/// range) is answered like a message that cannot be read, not passed over in silence.
pub(crate) trait CheckControl {
    /// What is wrong with the message, if anything.
    fn problem(&self) -> Option<String> {
        None
    }
}

/// Why `speed` cannot be used, if it is outside `range` (a control's [`CheckControl::problem`]).
pub(crate) fn speed_problem(speed: f64, range: &std::ops::RangeInclusive<f64>) -> Option<String> {
    (!range.contains(&speed)).then(|| {
        format!(
            "speed {speed} is not from {} to {}",
            range.start(),
            range.end()
        )
    })
}

/// Runs one connection until either side goes: `game` on a blocking thread with the frames'
/// sender (a channel of `frames` messages) and the controls' receiver, the frames out to the
/// page and its controls in (a control that cannot be read or used is answered with
/// `{"error": …}`, which the page shows). Dropping the frames' receiver makes the game thread's next send
/// fail: it ends and frees the game (and `live`, its count).
pub(crate) async fn run<C>(
    mut socket: WebSocket,
    frames: usize,
    live: LiveGame,
    game: impl FnOnce(mpsc::Sender<String>, mpsc::UnboundedReceiver<C>) + Send + 'static,
) where
    C: DeserializeOwned + CheckControl + Send + 'static,
{
    let (frames_tx, mut frames_rx) = mpsc::channel::<String>(frames);
    let (control_tx, control_rx) = mpsc::unbounded_channel::<C>();
    tokio::task::spawn_blocking(move || {
        let _live = live;
        game(frames_tx, control_rx);
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
                    let control = serde_json::from_str::<C>(&text)
                        .map_err(|e| e.to_string())
                        .and_then(|c| c.problem().map_or(Ok(c), Err));
                    match control {
                        Ok(c) => {
                            let _ = control_tx.send(c);
                        }
                        Err(e) => {
                            let error =
                                serde_json::json!({ "error": format!("bad control message: {e}") });
                            if socket.send(Message::Text(error.to_string().into())).await.is_err() {
                                break;
                            }
                        }
                    }
                }
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(_)) => {}
            }
        }
    }
}

/// Waits on the game thread for one of the server's search permits (one per core); `None` once
/// the page has gone (`frames` closed), so a game without a page ends without queueing behind
/// the others.
pub(crate) fn search_permit(
    runtime: &Handle,
    searches: &Arc<Semaphore>,
    frames: &mpsc::Sender<String>,
) -> Option<OwnedSemaphorePermit> {
    runtime.block_on(async {
        tokio::select! {
            permit = searches.clone().acquire_owned() => permit.ok(),
            () = frames.closed() => None,
        }
    })
}
