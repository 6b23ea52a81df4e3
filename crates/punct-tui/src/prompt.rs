//! A one-line text field for typed moves and file names.

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

/// The field's text; the cursor is always at the end.
#[derive(Clone, Debug)]
pub struct Prompt {
    /// What the text is for.
    pub purpose: Purpose,
    /// The text typed so far.
    pub text: String,
}

/// Longest text accepted, far beyond any move or sensible path.
const MAX_LEN: usize = 200;

impl Prompt {
    /// An empty field, or one filled with `text`.
    pub fn new(purpose: Purpose, text: &str) -> Prompt {
        Prompt {
            purpose,
            text: text.to_owned(),
        }
    }

    /// Applies one key.
    pub fn key(&mut self, key: KeyEvent) -> Edit {
        match key.code {
            KeyCode::Enter => Edit::Submit(self.text.trim().to_owned()),
            KeyCode::Esc => Edit::Cancel,
            KeyCode::Backspace => {
                self.text.pop();
                Edit::Typing
            }
            KeyCode::Char('u') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.text.clear();
                Edit::Typing
            }
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                if self.text.len() < MAX_LEN {
                    self.text.push(c);
                }
                Edit::Typing
            }
            _ => Edit::Typing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(p: &mut Prompt, code: KeyCode) -> Edit {
        p.key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn typing_editing_and_submitting() {
        let mut p = Prompt::new(Purpose::Move, "");
        for c in "TE5:0".chars() {
            assert_eq!(press(&mut p, KeyCode::Char(c)), Edit::Typing);
        }
        press(&mut p, KeyCode::Backspace);
        press(&mut p, KeyCode::Char('1'));
        assert_eq!(press(&mut p, KeyCode::Enter), Edit::Submit("TE5:1".into()));
        assert_eq!(press(&mut p, KeyCode::Esc), Edit::Cancel);
        p.key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
        assert_eq!(p.text, "");
    }
}
