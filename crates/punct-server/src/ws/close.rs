//! How a socket is closed when its client is to blame: with a close frame saying why.

use axum::extract::ws::{CloseFrame, Message, WebSocket, close_code};

use super::WsLimits;

/// Closes `socket` after a read error, saying why where the client is to blame: a message
/// over the limit (1009) or a broken protocol (1002).
pub(super) async fn refuse(socket: &mut WebSocket, error: &axum::Error, limits: &WsLimits) {
    let Some(error) =
        std::error::Error::source(error).and_then(|e| e.downcast_ref::<tungstenite::Error>())
    else {
        return;
    };
    let (code, reason) = match error {
        tungstenite::Error::Capacity(_) => (
            close_code::SIZE,
            format!(
                "a message may be at most {} bytes; the socket is closed",
                limits.max_message
            ),
        ),
        tungstenite::Error::Protocol(e) => (close_code::PROTOCOL, e.to_string()),
        _ => return,
    };
    close(socket, code, reason).await;
}

/// Closes `socket` with `code` and `reason`.
pub(super) async fn close(socket: &mut WebSocket, code: u16, reason: String) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    let _ = socket.send(Message::Close(Some(frame))).await;
}
