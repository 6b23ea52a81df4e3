//! A one-line text field for typed moves and file names, with the editing keys of a shell's
//! line: the cursor moves left and right, Home and End, Backspace and Delete, Ctrl-U clears,
//! and ↑ ↓ recall earlier entries.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// What a typed line is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Move text such as `TE4:0`.
    Move,
    /// The file to save the record to.
    Save,
}

impl Purpose {
    /// The label in front of the field.
    pub fn label(self) -> &'static str {
        match self {
            Purpose::Move => "move",
            Purpose::Save => "save as",
        }
    }
}

/// What a key did to the field.
#[derive(Debug, PartialEq, Eq)]
pub enum Edit {
    /// Still typing.
    Typing,
    /// Enter: the text is done.
    Submit(String),
    /// Esc: give up.
    Cancel,
}

/// The field's text and where the cursor is in it.
#[derive(Clone, Debug)]
pub struct Prompt {
    /// What the text is for.
    pub purpose: Purpose,
    /// The text typed so far.
    pub text: String,
    /// The cursor, in characters from the start of `text`.
    cursor: usize,
    /// Which earlier entry is shown, counted back from the latest (0), while recalling.
    recalled: Option<usize>,
    /// The text being typed before recalling began, which ↓ past the latest entry gives back.
    draft: String,
}

/// Longest text accepted, far beyond any move or sensible path.
const MAX_LEN: usize = 200;

impl Prompt {
    /// An empty field, or one filled with `text`, the cursor at its end.
    pub fn new(purpose: Purpose, text: &str) -> Prompt {
        Prompt {
            purpose,
            text: text.to_owned(),
            cursor: text.chars().count(),
            recalled: None,
            draft: String::new(),
        }
    }

    /// The text before the cursor, the character under it (if any) and the text after it.
    pub fn split_at_cursor(&self) -> (&str, Option<char>, &str) {
        let at = self.byte_index(self.cursor);
        let (before, rest) = self.text.split_at(at);
        let mut chars = rest.chars();
        let under = chars.next();
        (before, under, chars.as_str())
    }

    /// The byte where character `index` of the text starts.
    fn byte_index(&self, index: usize) -> usize {
        self.text
            .char_indices()
            .nth(index)
            .map_or(self.text.len(), |(i, _)| i)
    }

    /// Replaces the text, the cursor going to its end.
    fn set_text(&mut self, text: String) {
        self.cursor = text.chars().count();
        self.text = text;
    }

    /// Shows entry `back` (0 the latest) of `history`, or the draft again below the latest.
    fn recall(&mut self, back: Option<usize>, history: &[String]) {
        match back {
            Some(back) => {
                let Some(entry) = history.iter().rev().nth(back) else {
                    return;
                };
                if self.recalled.is_none() {
                    self.draft = std::mem::take(&mut self.text);
                }
                self.set_text(entry.clone());
            }
            None => {
                if self.recalled.is_none() {
                    return;
                }
                let draft = std::mem::take(&mut self.draft);
                self.set_text(draft);
            }
        }
        self.recalled = back;
    }

    /// Applies one key; `history` holds the earlier entries, the latest last.
    pub fn key(&mut self, key: KeyEvent, history: &[String]) -> Edit {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let length = self.text.chars().count();
        match key.code {
            KeyCode::Enter => return Edit::Submit(self.text.trim().to_owned()),
            KeyCode::Esc => return Edit::Cancel,
            KeyCode::Left => self.cursor = self.cursor.saturating_sub(1),
            KeyCode::Right => self.cursor = (self.cursor + 1).min(length),
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = length,
            KeyCode::Char('a') if ctrl => self.cursor = 0,
            KeyCode::Char('e') if ctrl => self.cursor = length,
            KeyCode::Up => {
                let back = self.recalled.map_or(0, |back| back + 1);
                self.recall(Some(back), history);
            }
            KeyCode::Down => {
                let back = self.recalled.and_then(|back| back.checked_sub(1));
                self.recall(back, history);
            }
            KeyCode::Backspace if self.cursor > 0 => {
                self.cursor -= 1;
                let at = self.byte_index(self.cursor);
                self.text.remove(at);
            }
            KeyCode::Delete if self.cursor < length => {
                let at = self.byte_index(self.cursor);
                self.text.remove(at);
            }
            KeyCode::Char('u') if ctrl => self.set_text(String::new()),
            KeyCode::Char(c) if !ctrl && length < MAX_LEN => {
                let at = self.byte_index(self.cursor);
                self.text.insert(at, c);
                self.cursor += 1;
            }
            _ => {}
        }
        Edit::Typing
    }
}

/// Earlier entries of a text field, the latest last, without repeats in a row.
#[derive(Clone, Debug, Default)]
pub struct History {
    entries: Vec<String>,
}

/// Most entries kept.
const HISTORY_LEN: usize = 100;

impl History {
    /// Notes an entry; an empty one or a repeat of the latest is not kept.
    pub fn add(&mut self, entry: &str) {
        if entry.is_empty() || self.entries.last().is_some_and(|last| last == entry) {
            return;
        }
        if self.entries.len() == HISTORY_LEN {
            self.entries.remove(0);
        }
        self.entries.push(entry.to_owned());
    }

    /// The entries, the latest last.
    pub fn entries(&self) -> &[String] {
        &self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(p: &mut Prompt, code: KeyCode) -> Edit {
        p.key(KeyEvent::new(code, KeyModifiers::NONE), &[])
    }

    fn typed(p: &mut Prompt, text: &str) {
        for c in text.chars() {
            assert_eq!(press(p, KeyCode::Char(c)), Edit::Typing);
        }
    }

    #[test]
    fn typing_editing_and_submitting() {
        let mut p = Prompt::new(Purpose::Move, "");
        typed(&mut p, "TE5:0");
        press(&mut p, KeyCode::Backspace);
        press(&mut p, KeyCode::Char('1'));
        assert_eq!(press(&mut p, KeyCode::Enter), Edit::Submit("TE5:1".into()));
        assert_eq!(press(&mut p, KeyCode::Esc), Edit::Cancel);
        p.key(
            KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL),
            &[],
        );
        assert_eq!(p.text, "");
    }

    #[test]
    fn the_cursor_moves_and_edits_in_the_middle() {
        let mut p = Prompt::new(Purpose::Move, "TE4:0");
        // Left twice: before `:`; the 4 becomes a 14.
        press(&mut p, KeyCode::Left);
        press(&mut p, KeyCode::Left);
        press(&mut p, KeyCode::Left);
        press(&mut p, KeyCode::Char('1'));
        assert_eq!(p.text, "TE14:0");
        assert_eq!(p.split_at_cursor(), ("TE1", Some('4'), ":0"));
        // Home, Delete: the T goes; a C in its place.
        press(&mut p, KeyCode::Home);
        press(&mut p, KeyCode::Delete);
        press(&mut p, KeyCode::Char('C'));
        assert_eq!(p.text, "CE14:0");
        // Backspace at the start and Delete at the end do nothing; End goes to the end.
        press(&mut p, KeyCode::Home);
        press(&mut p, KeyCode::Backspace);
        press(&mut p, KeyCode::End);
        press(&mut p, KeyCode::Delete);
        press(&mut p, KeyCode::Right);
        assert_eq!(p.split_at_cursor(), ("CE14:0", None, ""));
        p.key(
            KeyEvent::new(KeyCode::Char('a'), KeyModifiers::CONTROL),
            &[],
        );
        assert_eq!(p.split_at_cursor(), ("", Some('C'), "E14:0"));
        p.key(
            KeyEvent::new(KeyCode::Char('e'), KeyModifiers::CONTROL),
            &[],
        );
        press(&mut p, KeyCode::Backspace);
        assert_eq!(p.text, "CE14:");
        // Characters of more than one byte are edited as characters.
        let mut p = Prompt::new(Purpose::Save, "~/jeu-é.pgn");
        for _ in 0..4 {
            press(&mut p, KeyCode::Left);
        }
        press(&mut p, KeyCode::Backspace);
        assert_eq!(p.text, "~/jeu-.pgn");
        press(&mut p, KeyCode::Char('ü'));
        assert_eq!(p.split_at_cursor(), ("~/jeu-ü", Some('.'), "pgn"));
    }

    #[test]
    fn up_and_down_recall_earlier_entries_and_the_draft() {
        let mut history = History::default();
        for entry in ["TE4:0", "", "TM12:0", "TM12:0", "E4-E7:3"] {
            history.add(entry);
        }
        assert_eq!(history.entries(), ["TE4:0", "TM12:0", "E4-E7:3"]);
        let mut p = Prompt::new(Purpose::Move, "");
        typed(&mut p, "TD");
        let key = |p: &mut Prompt, code| {
            p.key(KeyEvent::new(code, KeyModifiers::NONE), history.entries())
        };
        key(&mut p, KeyCode::Up);
        assert_eq!(p.text, "E4-E7:3");
        key(&mut p, KeyCode::Up);
        key(&mut p, KeyCode::Up);
        assert_eq!(p.text, "TE4:0");
        // Past the oldest it stays there.
        key(&mut p, KeyCode::Up);
        assert_eq!(p.text, "TE4:0");
        key(&mut p, KeyCode::Down);
        assert_eq!(p.text, "TM12:0");
        // A recalled entry is edited like typed text.
        key(&mut p, KeyCode::Backspace);
        key(&mut p, KeyCode::Char('1'));
        assert_eq!(p.text, "TM12:1");
        key(&mut p, KeyCode::Down);
        key(&mut p, KeyCode::Down);
        assert_eq!(p.text, "TD", "below the latest: the text typed before");
        key(&mut p, KeyCode::Down);
        assert_eq!(p.text, "TD");
        // Nothing to recall: nothing changes.
        let mut empty = Prompt::new(Purpose::Move, "x");
        press(&mut empty, KeyCode::Up);
        assert_eq!(empty.text, "x");
        let mut full = History::default();
        for n in 0..HISTORY_LEN + 5 {
            full.add(&n.to_string());
        }
        assert_eq!(full.entries().len(), HISTORY_LEN);
        assert_eq!(full.entries()[0], "5");
    }
}
