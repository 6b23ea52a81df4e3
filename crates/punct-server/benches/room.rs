//! The server's own work for one move, beside the network and the database: check and play
//! the move on the room, take what the store keeps of it (a pending move), take the state's
//! snapshot and write the event for each audience of a friend game (a watcher, White,
//! Black); and the whole stored form, which any other change stores.

use std::sync::Arc;

use divan::{Bencher, black_box};
use punct_core::{Colour, Game, Variant};
use punct_server::games::{Announced, Announcement};
use punct_server::room::{Action, Audience, Clock, Mode, Room, Seat, Snapshot};
use punct_server::wire::server::announced_text;

fn main() {
    divan::main();
}

/// A timed game between friends after `plies` moves (the middle one of the legal moves at
/// each turn, a deterministic game), and the text of the move that comes next.
fn room_after(plies: usize) -> (Room, String) {
    let mut room = Room::new(
        "0123456789abcdef".into(),
        Mode::Friend,
        Game::new(Variant::Standard),
        [Seat::person("White", "tw"), Seat::person("Black", "tb")],
        Some(Clock::new(600_000, 5_000)),
        0,
    );
    let next = |room: &Room| {
        let moves = room.game.position().legal_moves();
        moves[moves.len() / 2].to_string()
    };
    for ply in 0..plies {
        let text = next(&room);
        let colour = room.turn();
        room.act(&[colour], &Action::Move { text }, ply as i64 * 1000)
            .unwrap();
    }
    let text = next(&room);
    (room, text)
}

#[divan::bench(args = [10, 40, 80])]
fn one_move(bencher: Bencher, plies: usize) {
    let (room, text) = room_after(plies);
    let turn: [Colour; 1] = [room.turn()];
    let action = Action::Move { text };
    let audiences = [
        Audience::Watcher,
        Audience::Seat(Colour::White),
        Audience::Seat(Colour::Black),
    ];
    // The room is played on in place (a fresh copy for each run, made outside the timing).
    bencher
        .with_inputs(|| room.clone())
        .bench_local_values(|mut next| {
            let change = next.act(&turn, &action, 1_000_000).unwrap();
            let stored = next.pending_move(change);
            let snapshot = Arc::new(Snapshot::of(&next, 1_000_000));
            let event = Announcement::new(Announced::Change(change), snapshot);
            let forms = audiences.map(|audience| announced_text(&event, audience));
            black_box((stored, forms, next))
        });
}

/// The whole stored form, which a move that ends the game (and any other change) stores.
#[divan::bench(args = [10, 40, 80])]
fn stored_form(bencher: Bencher, plies: usize) {
    let (room, _) = room_after(plies);
    bencher.bench_local(|| black_box(room.stored_json()));
}
