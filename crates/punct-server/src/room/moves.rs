//! The moves of a game as the JSON list of their texts (`["TE4:0","TK5:0"]`), kept beside
//! the game and changed move by move, so that every state and stored form of the game copies
//! the list rather than writing each move again.

use std::fmt::Write as _;
use std::sync::Arc;

use punct_core::Move;
use serde_json::value::RawValue;

/// The JSON list of a game's move texts, shared with the snapshots taken of it until the
/// next move. Move texts hold no quotes, commas or escapes.
#[derive(Clone, Debug)]
pub struct MoveTexts(Arc<RawValue>);

impl MoveTexts {
    /// The list of `moves`.
    pub fn new(moves: &[Move]) -> MoveTexts {
        let mut text = String::from("[");
        for (i, mv) in moves.iter().enumerate() {
            let comma = if i == 0 { "" } else { "," };
            let _ = write!(text, "{comma}\"{mv}\"");
        }
        text.push(']');
        MoveTexts::of(text)
    }

    /// The list written in `text`, which is JSON: move texts never need escaping.
    fn of(text: String) -> MoveTexts {
        let json = RawValue::from_string(text).unwrap_or_else(|_| RawValue::NULL.to_owned());
        MoveTexts(json.into())
    }

    /// The list with `mv` played.
    pub fn push(&mut self, mv: Move) {
        let old = self.0.get();
        let mut text = String::with_capacity(old.len() + 12);
        text.push_str(&old[..old.len() - 1]);
        if old.len() > 2 {
            text.push(',');
        }
        let _ = write!(text, "\"{mv}\"]");
        *self = MoveTexts::of(text);
    }

    /// The list with its last move taken back.
    pub fn pop(&mut self) {
        let old = self.0.get();
        let cut = old.rfind(',').unwrap_or(1);
        let mut text = String::with_capacity(cut + 1);
        text.push_str(&old[..cut]);
        text.push(']');
        *self = MoveTexts::of(text);
    }

    /// The texts, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        let text = self.0.get();
        text[1..text.len() - 1]
            .split(',')
            .filter(|t| !t.is_empty())
            .map(|t| t.trim_matches('"'))
    }

    /// The list as JSON.
    pub fn json(&self) -> &RawValue {
        &self.0
    }

    /// The list as JSON, shared.
    pub fn shared(&self) -> Arc<RawValue> {
        self.0.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_follows_the_moves_and_stays_json() {
        let moves: Vec<Move> = ["TE4:0", "TK5:0", "TC3:0"]
            .iter()
            .map(|t| Move::parse(t).unwrap())
            .collect();
        let mut texts = MoveTexts::new(&[]);
        assert_eq!(texts.json().get(), "[]");
        for mv in &moves {
            texts.push(*mv);
        }
        assert_eq!(texts.json().get(), MoveTexts::new(&moves).json().get());
        let read: Vec<String> = serde_json::from_str(texts.json().get()).unwrap();
        let shown: Vec<String> = moves.iter().map(Move::to_string).collect();
        assert_eq!(read, shown);
        assert_eq!(texts.iter().collect::<Vec<_>>(), read);
        texts.pop();
        texts.pop();
        assert_eq!(texts.json().get(), r#"["TE4:0"]"#);
        texts.pop();
        assert_eq!(texts.json().get(), "[]");
        assert_eq!(texts.iter().count(), 0);
    }
}
