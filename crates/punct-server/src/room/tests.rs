use super::*;
use crate::store::{Form, PendingMove};
use punct_core::Variant;
use serde_json::{Value, json};

use crate::error::ErrorKind;
use crate::wire::view::GameState;

/// The state of `room` at `now` as a watcher sees it, as JSON.
fn state(room: &Room, now: i64) -> Value {
    let snapshot = Snapshot::of(room, now);
    serde_json::to_value(GameState::of(&snapshot, Audience::Watcher, now)).unwrap()
}

fn friend_room() -> Room {
    Room::new(
        "g".into(),
        Mode::Friend,
        Game::new(Variant::Standard),
        [Seat::person("w", "tw"), Seat::person("b", "tb")],
        Some(Clock::new(60_000, 1_000)),
        0,
    )
}

fn mv(text: &str) -> Action {
    Action::Move { text: text.into() }
}

#[test]
fn refusals_change_nothing() {
    let mut room = friend_room();
    let before = room.to_stored();
    let w = room.audience(Some("tw")).colours();
    let b = room.audience(Some("tb")).colours();
    assert_eq!(
        room.act(&[], &mv("TE4:0"), 1).unwrap_err().kind,
        ErrorKind::Forbidden
    );
    assert_eq!(
        room.act(b, &mv("TE4:0"), 1).unwrap_err().kind,
        ErrorKind::Conflict
    );
    assert_eq!(
        room.act(w, &mv("TA1:0"), 1).unwrap_err().kind,
        ErrorKind::BadRequest
    );
    assert_eq!(
        room.act(w, &mv("TI9:0"), 1).unwrap_err().kind,
        ErrorKind::Illegal
    );
    assert_eq!(
        room.act(w, &Action::DeclineDraw, 1).unwrap_err().kind,
        ErrorKind::Conflict
    );
    assert_eq!(
        serde_json::to_string(&room.to_stored()).unwrap(),
        serde_json::to_string(&before).unwrap()
    );
}

#[test]
fn takeback_and_draw_need_the_opponent() {
    let mut room = friend_room();
    let (w, b) = (
        room.audience(Some("tw")).colours(),
        room.audience(Some("tb")).colours(),
    );
    room.act(w, &mv("TE4:0"), 10).unwrap();
    assert_eq!(
        room.act(w, &Action::Takeback, 20).unwrap(),
        Change::TakebackRequest
    );
    assert_eq!(
        room.act(b, &Action::Takeback, 30).unwrap(),
        Change::Takeback
    );
    assert!(room.game.moves().is_empty());
    room.act(w, &Action::OfferDraw, 40).unwrap();
    room.act(b, &Action::OfferDraw, 50).unwrap();
    let o = room.game.outcome().unwrap();
    assert_eq!((o.winner, o.termination), (None, Termination::Agreement));
}

#[test]
fn stored_form_round_trips() {
    let mut room = friend_room();
    let w = room.audience(Some("tw")).colours();
    room.act(w, &mv("TE4:0"), 10).unwrap();
    let b = room.audience(Some("tb")).colours();
    room.act(b, &Action::Resign, 20).unwrap();
    let back = Room::from_stored(room.to_stored(), 99, 99).unwrap();
    assert_eq!(back.game.moves(), room.game.moves());
    assert_eq!(back.game.outcome(), room.game.outcome());
    assert_eq!(back.seq, room.seq);
}

#[test]
fn the_stored_json_is_the_stored_form() {
    let mut room = friend_room();
    let w = room.audience(Some("tw")).colours();
    room.act(w, &mv("CE4:4"), 10).unwrap();
    room.act(room.audience(Some("tb")).colours(), &Action::OfferDraw, 20)
        .unwrap();
    let read: Stored = serde_json::from_str(&room.stored_json()).unwrap();
    assert_eq!(
        serde_json::to_value(&read).unwrap(),
        serde_json::to_value(room.to_stored()).unwrap()
    );
    assert_eq!(read.moves, ["CE4:1"]);
    let back = Room::from_stored(read, 30, 30).unwrap();
    assert_eq!(state(&back, 30), state(&room, 30));
}

/// Random legal moves, some of them ending the game, with time passing between them.
fn play_randomly(room: &mut Room, moves: usize, seed: u64) -> Vec<Option<PendingMove>> {
    let mut rng = seed;
    let mut pending = Vec::new();
    for _ in 0..moves {
        if !room.is_live() {
            break;
        }
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let pos = room.game.position();
        let chosen = pos
            .nth_legal_move((rng >> 33) % pos.count_legal_moves())
            .unwrap();
        let turn = room.turn();
        let now = room.updated_ms + 100 + (rng % 900) as i64;
        let change = room.act(&[turn], &mv(&chosen.to_string()), now).unwrap();
        pending.push(room.pending_move(change));
    }
    pending
}

#[test]
fn the_state_carries_the_position_text_and_the_moves_whole() {
    for seed in 0..4_u64 {
        let mut room = friend_room();
        while room.is_live() {
            let ply = room.game.moves().len() as u64;
            play_randomly(&mut room, 1, seed * 1000 + ply);
            // The position's text is written into the JSON as it is: any character that
            // JSON escapes would break the text or change the value read back.
            let state = state(&room, room.updated_ms);
            assert_eq!(state["position"], room.game.position().to_string());
            let moves: Vec<String> = room.game.moves().iter().map(|m| m.to_string()).collect();
            assert_eq!(state["moves"], json!(moves));
            assert_eq!(state["seq"], room.seq);
        }
    }
}

#[test]
fn a_pending_move_changes_the_stored_form_as_the_move_changed_the_room() {
    for seed in 0..8 {
        let mut room = friend_room();
        let w = room.audience(Some("tw")).colours();
        room.act(w, &Action::OfferDraw, 500).unwrap();
        let mut stored = room.to_stored();
        let mut rng = seed;
        while room.is_live() {
            let before = room.to_stored();
            let pending = play_randomly(&mut room, 1, rng).pop().unwrap();
            rng = rng.wrapping_add(0x9e37_79b9);
            match pending {
                Some(p) => {
                    stored.apply(&p).unwrap();
                    assert_eq!(
                        serde_json::to_value(&stored).unwrap(),
                        serde_json::to_value(room.to_stored()).unwrap()
                    );
                    // Applied again, or to a later state, it changes nothing.
                    stored.apply(&p).unwrap();
                    let mut skipped = before.clone();
                    skipped.seq += 2;
                    assert!(skipped.apply(&p).is_ok());
                }
                // The game ended: the whole room is stored instead.
                None => assert!(!room.is_live()),
            }
        }
        // Nothing is added to a finished game.
        let mut done = room.to_stored();
        let late = PendingMove {
            game: "g".into(),
            seq: done.seq + 1,
            at_ms: 0,
            mover: 0,
            text: "TE4:0".into(),
            left_ms: Some(1),
        };
        assert!(done.apply(&late).is_err());
    }
}

#[test]
fn a_pending_move_must_follow_the_stored_form() {
    let mut room = friend_room();
    let mut stored = room.to_stored();
    let pending = play_randomly(&mut room, 2, 7);
    let second = pending[1].clone().unwrap();
    assert!(
        stored
            .apply(&second)
            .unwrap_err()
            .contains("does not follow")
    );
    let mut untimed = Room::new(
        "u".into(),
        Mode::Friend,
        Game::new(Variant::Standard),
        [Seat::person("w", "tw"), Seat::person("b", "tb")],
        None,
        0,
    )
    .to_stored();
    let first = pending[0].clone().unwrap();
    assert!(untimed.apply(&first).unwrap_err().contains("no clock"));
    // Only a move that leaves the game running is kept as a pending move.
    let b = room.audience(Some("tb")).colours();
    let change = room.act(b, &Action::OfferDraw, 10_000).unwrap();
    assert_eq!(change, Change::DrawOffer);
    assert_eq!(room.pending_move(change), None);
}

#[test]
fn move_texts_follow_takebacks() {
    let mut room = friend_room();
    let (w, b) = (
        room.audience(Some("tw")).colours(),
        room.audience(Some("tb")).colours(),
    );
    room.act(w, &mv("TE4:0"), 10).unwrap();
    room.act(b, &mv("TK5:0"), 20).unwrap();
    room.act(b, &Action::Takeback, 30).unwrap();
    room.act(w, &Action::Takeback, 40).unwrap();
    room.act(b, &mv("TC3:0"), 50).unwrap();
    assert_eq!(state(&room, 60)["moves"], json!(["TE4:0", "TC3:0"]));
}

#[test]
fn a_restart_charges_thinking_time_but_not_downtime() {
    let mut room = friend_room();
    let w = room.audience(Some("tw")).colours();
    room.act(w, &mv("TE4:0"), 10_000).unwrap();
    // Black thinks from 10 s; the server was last alive at 14 s and restarts at 100 s.
    let back = Room::from_stored(room.to_stored(), 100_000, 14_000).unwrap();
    let c = back.clock.as_ref().unwrap();
    assert_eq!(c.left(Colour::Black, Colour::Black, 100_000), 56_000);
    assert_eq!(c.left(Colour::Black, Colour::Black, 101_000), 55_000);
    // White's first move cost nothing (the clock starts with it), and earned the increment.
    assert_eq!(c.left(Colour::White, Colour::Black, 101_000), 61_000);
    // Out of time before the crash: the flag falls at once.
    let mut late = Room::from_stored(room.to_stored(), 200_000, 75_000).unwrap();
    assert!(late.check_flag(200_000));
}

#[test]
fn a_takeback_charges_the_side_that_was_thinking() {
    let mut room = friend_room();
    let (w, b) = (
        room.audience(Some("tw")).colours(),
        room.audience(Some("tb")).colours(),
    );
    room.act(w, &mv("TE4:0"), 10_000).unwrap();
    room.act(w, &Action::Takeback, 20_000).unwrap();
    // Black thinks from 10 s to 40 s, then grants the takeback: those 30 s are spent.
    room.act(b, &Action::Takeback, 40_000).unwrap();
    let c = room.clock.as_ref().unwrap();
    assert_eq!(c.left(Colour::Black, Colour::White, 40_000), 30_000);
    // White, to move again, runs from the takeback on (its first move cost nothing, and
    // earned the increment).
    assert_eq!(c.left(Colour::White, Colour::White, 45_000), 56_000);
}

#[test]
fn takebacks_against_the_computer_do_not_stop_the_clock() {
    let mut room = Room::new(
        "c".into(),
        Mode::Computer,
        Game::new(Variant::Standard),
        [
            Seat::person("w", "tw"),
            Seat::computer("punct", Level::new(1).unwrap()),
        ],
        Some(Clock::new(60_000, 0)),
        0,
    );
    let w = room.audience(Some("tw")).colours();
    room.act(w, &mv("TE4:0"), 1_000).unwrap();
    room.act(&[Colour::Black], &mv("TK5:0"), 2_000).unwrap();
    // White thinks 20 s and takes back both moves: White is charged these 20 s (its first
    // move cost nothing: the clock started with it), so taking back again and again does
    // not give White time.
    room.act(w, &Action::Takeback, 22_000).unwrap();
    assert!(room.game.moves().is_empty());
    let c = room.clock.as_ref().unwrap();
    assert_eq!(c.left(Colour::White, Colour::White, 22_000), 40_000);
}

#[test]
fn running_out_of_time_loses() {
    let mut room = friend_room();
    // Nobody's time runs before the first move.
    assert!(!room.check_flag(600_000));
    let w = room.audience(Some("tw")).colours();
    room.act(w, &mv("TE4:0"), 1_000).unwrap();
    assert!(!room.check_flag(60_999));
    assert!(room.check_flag(61_000));
    assert_eq!(room.game.outcome().unwrap().winner, Some(Colour::White));
}

fn lifetimes() -> Lifetimes {
    Lifetimes {
        abort_after: std::time::Duration::from_millis(100),
        invitation: std::time::Duration::from_millis(1_000),
        abandon_after: std::time::Duration::from_millis(10_000),
        check_every: std::time::Duration::from_millis(10),
    }
}

#[test]
fn a_side_that_never_makes_its_first_move_aborts_the_game() {
    let l = lifetimes();
    let mut room = friend_room();
    let (w, b) = (
        room.audience(Some("tw")).colours(),
        room.audience(Some("tb")).colours(),
    );
    assert_eq!(room.expiry(&l), Some((100, Termination::Aborted)));
    assert_eq!(room.expire(99, &l).unwrap_err().kind, ErrorKind::Conflict);
    room.act(w, &mv("TE4:0"), 50).unwrap();
    // Black's first move is awaited from the start of its turn.
    assert_eq!(room.expiry(&l), Some((150, Termination::Aborted)));
    let before = room.seq;
    assert_eq!(room.expire(150, &l).unwrap(), Change::Aborted);
    let o = room.game.outcome().unwrap();
    assert_eq!((o.winner, o.termination), (None, Termination::Aborted));
    assert_eq!(room.seq, before + 1);
    assert!(!room.is_live() && room.expiry(&l).is_none());
    // Once both sides have moved, a timed game is left to its clock.
    let mut room = friend_room();
    room.act(w, &mv("TE4:0"), 50).unwrap();
    room.act(b, &mv("TK5:0"), 60).unwrap();
    assert_eq!(room.expiry(&l), None);
    assert!(room.expire(i64::MAX, &l).is_err());
}

#[test]
fn an_invitation_expires_and_an_untimed_game_nobody_plays_is_abandoned() {
    let l = lifetimes();
    let seats = [Seat::person("w", "tw"), Seat::open("b")];
    let mut room = Room::new(
        "g".into(),
        Mode::Friend,
        Game::new(Variant::Standard),
        seats,
        None,
        0,
    );
    assert_eq!(room.expiry(&l), Some((1_000, Termination::Aborted)));
    assert_eq!(room.expire(1_000, &l).unwrap(), Change::Aborted);
    // Stored and read back, the game stays ended without a result.
    let back = Room::from_stored(room.to_stored(), 2_000, 2_000).unwrap();
    assert_eq!(back.game.outcome(), room.game.outcome());
    assert_eq!(back.summary().result.as_deref(), Some("game aborted"));

    let seats = [
        Seat::person("w", "t"),
        Seat::computer("punct", Level::new(3).unwrap()),
    ];
    let mut room = Room::new(
        "g".into(),
        Mode::Computer,
        Game::new(Variant::Standard),
        seats,
        None,
        0,
    );
    room.act(room.audience(Some("t")).colours(), &mv("TE4:0"), 10)
        .unwrap();
    // The computer is to move: it never aborts the game, but nobody playing on abandons it.
    assert_eq!(room.expiry(&l), Some((10_010, Termination::Abandoned)));
    assert_eq!(room.expire(10_010, &l).unwrap(), Change::Abandoned);
    assert_eq!(room.game.outcome().unwrap().result_token(), "*");
}

#[test]
fn a_join_sent_again_with_its_invitation_and_request_id_soon_after_gets_the_seat_back() {
    let open_room = || {
        Room::new(
            "f".into(),
            Mode::Friend,
            Game::new(Variant::Standard),
            [Seat::person("w", "tw"), Seat::open("friend")],
            None,
            0,
        )
    };
    let mut room = open_room();
    let invite = room.invite.clone().unwrap();
    let id = Some("r1");
    assert_eq!(room.repeated_join(&invite, id, 10), None);
    let colour = room
        .join("tb".into(), "Bo", None, Some(&invite), id, 1_000)
        .unwrap();
    assert_eq!(
        room.repeated_join(&invite, id, 1_000 + JOIN_REPEAT_MS),
        Some(colour)
    );
    assert_eq!(
        room.repeated_join(&invite, id, 1_001 + JOIN_REPEAT_MS),
        None
    );
    assert_eq!(room.repeated_join("another", id, 2_000), None);
    // Someone else the link reached, without the request's id, does not get the seat.
    assert_eq!(room.repeated_join(&invite, None, 2_000), None);
    assert_eq!(room.repeated_join(&invite, Some("r2"), 2_000), None);
    // Kept with the game, across a restart.
    let back = Room::from_stored(room.to_stored(), 3_000, 3_000).unwrap();
    assert_eq!(back.repeated_join(&invite, id, 3_000), Some(colour));
    // A join that gave no id has no repeat.
    let mut room = open_room();
    let invite = room.invite.clone().unwrap();
    room.join("tb".into(), "Bo", None, Some(&invite), None, 1_000)
        .unwrap();
    assert_eq!(room.repeated_join(&invite, None, 1_000), None);
}

#[test]
fn a_move_is_recognised_again_in_any_spelling() {
    let mut room = friend_room();
    let w = room.audience(Some("tw")).colours();
    let seq = room.seq;
    room.act(w, &mv(" TE4:0 "), 10).unwrap();
    assert_eq!(room.answered(w, &mv("TE4:0"), seq), Some(Ok(seq + 1)));
    assert_eq!(room.answered(w, &mv(" TE4:0 "), seq), Some(Ok(seq + 1)));
    let back = Room::from_stored(room.to_stored(), 20, 20).unwrap();
    assert_eq!(back.answered(w, &mv(" TE4:0 "), seq), Some(Ok(seq + 1)));
    assert!(matches!(back.answered(w, &mv("TC3:0"), seq), Some(Err(_))));
}

#[test]
fn a_rematch_swaps_the_seats_and_starts_afresh_and_survives_storing() {
    let mut room = friend_room();
    let (w, b) = (
        room.audience(Some("tw")).colours(),
        room.audience(Some("tb")).colours(),
    );
    room.act(w, &mv("TE4:0"), 1_000).unwrap();
    assert_eq!(
        room.rematch_step(w).unwrap_err().kind,
        ErrorKind::Conflict,
        "not while the game runs"
    );
    room.act(b, &Action::Resign, 2_000).unwrap();
    assert_eq!(
        room.rematch_step(&[]).unwrap_err().kind,
        ErrorKind::Forbidden
    );
    assert_eq!(room.rematch_step(w).unwrap(), RematchStep::Offer);
    assert_eq!(
        room.act(w, &Action::Rematch, 3_000).unwrap(),
        Change::RematchOffer
    );
    assert_eq!(room.rematch_step(w).unwrap_err().kind, ErrorKind::Conflict);
    assert_eq!(room.rematch_step(b).unwrap(), RematchStep::Create);

    let new = room.rematch_room("h".into(), 4_000);
    assert_eq!(new.audience(Some("tw")).colours(), vec![Colour::Black]);
    assert_eq!(new.audience(Some("tb")).colours(), vec![Colour::White]);
    assert_eq!((new.seats[0].name(), new.seats[1].name()), ("b", "w"));
    assert!(new.game.moves().is_empty() && new.is_live());
    let clock = new.clock.as_ref().unwrap();
    assert_eq!(clock.remaining_ms, [60_000, 60_000]);
    assert_eq!(clock.running_since, None, "it waits for the first move");
    assert_eq!(new.invite, None);

    assert_eq!(room.record_rematch(b, "h".into(), 4_000), Change::Rematch);
    assert_eq!(room.rematch_step(w).unwrap(), RematchStep::Exists);
    let back = Room::from_stored(
        serde_json::from_str(&room.stored_json()).unwrap(),
        5_000,
        5_000,
    )
    .unwrap();
    assert_eq!(back.rematch.as_deref(), Some("h"));
    assert_eq!(back.rematch_offer, None);
    let state = state(&back, 5_000);
    assert_eq!(state["rematch"], "h");
}
