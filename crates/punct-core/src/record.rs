//! Game records in the style of PGN.
//!
//! ```text
//! [Game "PÜNCT"]
//! [Variant "standard"]
//! [White "Ada"]
//! [Black "punct level 3"]
//! [Date "2026.11.22"]
//! [Result "1-0"]
//! [Termination "connection"]
//!
//! 1. TE4:0 TK5:0 2. E4-E7:3 {a fine cut} MF5:2 1-0
//! ```
//!
//! A `Position` tag holds the starting position when it is not the empty board. Reading
//! replays every move with the rules, so a record that reads is a legal game; writing the
//! record read gives back the same text when that text was written by this module.

use std::fmt::{self, Write as _};

use crate::game::Game;
use crate::moves::Move;
use crate::piece::Colour;
use crate::position::{Position, Variant};
use crate::status::{Outcome, Termination};

/// Longest line of move text the writer produces (longer only for long comments).
const LINE_WIDTH: usize = 80;

/// A move of a record with the comment that follows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The move, canonical.
    pub mv: Move,
    /// A comment written after it, without braces.
    pub comment: Option<String>,
}

/// A game record: tag pairs, moves with comments, and a result.
#[derive(Clone, Debug)]
pub struct Record {
    /// Tag pairs in order of appearance.
    pub tags: Vec<(String, String)>,
    /// A comment before the first move.
    pub intro: Option<String>,
    /// The moves.
    pub moves: Vec<RecordMove>,
    /// The game replayed, with its outcome.
    pub game: Game,
}

/// Why a record was refused, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("record line {line}: {message}")]
pub struct RecordError {
    /// 1-based line of the problem.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn err(line: usize, message: impl Into<String>) -> RecordError {
    RecordError {
        line,
        message: message.into(),
    }
}

/// The number written before a move made at `ply` by `turn`: it goes up before each White
/// move, so that a White move and the Black reply after it share a number (`3. TE4:0 TK5:0`),
/// and a Black move at ply 5 is `3...`. A start whose side does not match its ply's parity
/// (White to move at ply 1) still numbers every move pair once: `2. … 2... …` never repeats.
fn move_number(ply: u32, turn: Colour) -> u32 {
    (ply + u32::from(turn == Colour::White)) / 2 + 1
}

impl Position {
    /// The move number of the move to be made here, as records, move lists and analysis
    /// lines print it (`3.` before White's move, `3...` before Black's).
    pub fn move_number(&self) -> u32 {
        move_number(self.ply(), self.turn())
    }
}

/// The result token for a game's state: `1-0`, `0-1`, `1/2-1/2` or `*`.
fn result_token(outcome: Option<Outcome>) -> &'static str {
    outcome.map_or("*", Outcome::result_token)
}

impl Record {
    /// A record of `game` with the standard tags.
    pub fn from_game(game: Game, white: &str, black: &str, date: &str) -> Record {
        let mut tags = vec![
            ("Game".to_owned(), "PÜNCT".to_owned()),
            ("Variant".to_owned(), game.start().variant().to_string()),
            ("White".to_owned(), white.to_owned()),
            ("Black".to_owned(), black.to_owned()),
            ("Date".to_owned(), date.to_owned()),
            ("Result".to_owned(), result_token(game.outcome()).to_owned()),
        ];
        if let Some(o) = game.outcome() {
            tags.push(("Termination".to_owned(), o.termination.name().to_owned()));
        }
        if *game.start() != Position::new(game.start().variant()) {
            tags.push(("Position".to_owned(), game.start().to_string()));
        }
        let moves = game
            .moves()
            .iter()
            .map(|&mv| RecordMove { mv, comment: None })
            .collect();
        Record {
            tags,
            intro: None,
            moves,
            game,
        }
    }

    /// The value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, keeping its place if it exists.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_owned(),
            None => self.tags.push((name.to_owned(), value.to_owned())),
        }
    }

    /// Reads a record, replaying its moves.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut tags = Vec::new();
        let mut lines = text.lines().enumerate().peekable();
        while let Some((i, line)) = lines.peek().copied() {
            let line = line.trim_end();
            if line.is_empty() {
                lines.next();
                continue;
            }
            if !line.starts_with('[') {
                break;
            }
            tags.push(parse_tag(line).map_err(|m| err(i + 1, m))?);
            lines.next();
        }
        let body_start = lines.peek().map_or(0, |(i, _)| *i);
        let body: Vec<&str> = lines.map(|(_, l)| l).collect();
        let body = body.join("\n");

        let find = |name: &str| {
            tags.iter()
                .find(|(n, _): &&(String, String)| n == name)
                .map(|(_, v)| v.as_str())
        };
        let variant = match find("Variant") {
            None => Variant::Standard,
            Some(v) => Variant::from_name(v).ok_or_else(|| {
                err(
                    1,
                    format!("unknown Variant `{v}`: expected basic or standard"),
                )
            })?,
        };
        let start = match find("Position") {
            None => Position::new(variant),
            Some(text) => {
                let pos = Position::from_text(text)
                    .map_err(|e| err(1, format!("bad Position tag: {e}")))?;
                if pos.variant() != variant {
                    return Err(err(
                        1,
                        "the Position tag's variant differs from the Variant tag",
                    ));
                }
                pos
            }
        };
        let mut game = Game::from_position(start);
        let mut moves: Vec<RecordMove> = Vec::new();
        let mut intro = None;
        let mut result: Option<(usize, String)> = None;
        for (line, token) in tokens(&body, body_start + 1)? {
            if let Some((at, r)) = &result {
                return Err(err(
                    line,
                    format!("`{token}` after the result `{r}` (line {at})"),
                ));
            }
            if let Some(comment) = token.strip_prefix('{') {
                let comment = comment.strip_suffix('}').unwrap_or(comment).to_owned();
                match moves.last_mut() {
                    None if intro.is_none() => intro = Some(comment),
                    Some(last) if last.comment.is_none() => last.comment = Some(comment),
                    _ => return Err(err(line, "two comments in a row")),
                }
                continue;
            }
            if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                result = Some((line, token.to_owned()));
                continue;
            }
            if let Some(number) = token
                .strip_suffix("...")
                .or_else(|| token.strip_suffix('.'))
            {
                let pos = game.position();
                let expected = pos.move_number();
                let black = token.ends_with("...");
                // Records written before the numbers went up only before White's moves
                // numbered `ply / 2 + 1`, which differs after a start whose side to move
                // does not match its ply's parity.
                let ok = number
                    .parse::<u32>()
                    .is_ok_and(|n| n == expected || n == pos.ply() / 2 + 1)
                    && black == (pos.turn() == Colour::Black);
                if !ok {
                    let want = if game.position().turn() == Colour::Black {
                        format!("{expected}...")
                    } else {
                        format!("{expected}.")
                    };
                    return Err(err(
                        line,
                        format!("move number `{token}` should be `{want}`"),
                    ));
                }
                continue;
            }
            let mv = Move::parse(token).map_err(|e| err(line, e.to_string()))?;
            let n = moves.len() + 1;
            let mv = game
                .play(mv)
                .map_err(|e| err(line, format!("move {n} `{token}`: {e}")))?;
            moves.push(RecordMove { mv, comment: None });
        }
        let (line, result) = result.ok_or_else(|| {
            err(
                body_start + body.lines().count().max(1),
                "missing result token (1-0, 0-1, 1/2-1/2 or *) at the end",
            )
        })?;
        if let Some(tag) = find("Result")
            && tag != result
        {
            return Err(err(
                line,
                format!("result `{result}` differs from the Result tag `{tag}`"),
            ));
        }
        match game.outcome() {
            Some(outcome) if outcome.result_token() != result => {
                return Err(err(
                    line,
                    format!("result `{result}` but the game ended: {outcome}"),
                ));
            }
            Some(_) => {}
            None => {
                let termination = find("Termination").and_then(Termination::from_name);
                let winner = match result.as_str() {
                    "1-0" => Some(Some(Colour::White)),
                    "0-1" => Some(Some(Colour::Black)),
                    "1/2-1/2" => Some(None),
                    "*" if termination.is_some_and(Termination::is_void) => Some(None),
                    _ => None,
                };
                if let (Some(winner), Some(termination)) = (winner, termination) {
                    game.end(Outcome {
                        winner,
                        termination,
                    });
                }
            }
        }
        Ok(Record {
            tags,
            intro,
            moves,
            game,
        })
    }
}

impl Record {
    /// Reads every record of a text holding several one after another, as `punct match`
    /// writes them: a record ends where the next one's tag pairs begin. Errors name the
    /// line in the whole text.
    pub fn parse_all(text: &str) -> Result<Vec<Record>, RecordError> {
        Record::read_each(text).into_iter().collect()
    }

    /// Reads each record of a text holding several, as [`Record::parse_all`] does, but
    /// keeps going past a bad one: every game is a record or the reason it could not be
    /// read (with its line in the whole text), so an importer can say which games it read.
    pub fn read_each(text: &str) -> Vec<Result<Record, RecordError>> {
        let lines: Vec<&str> = text.lines().collect();
        let mut starts = vec![0];
        let (mut in_body, mut in_comment) = (false, false);
        for (i, line) in lines.iter().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if line.starts_with('[') && !in_comment {
                if in_body {
                    starts.push(i);
                    in_body = false;
                }
                continue;
            }
            in_body = true;
            for c in line.chars() {
                match c {
                    '{' if !in_comment => in_comment = true,
                    '}' if in_comment => in_comment = false,
                    _ => {}
                }
            }
        }
        if !in_body && starts.len() == 1 {
            return vec![Err(err(lines.len().max(1), "no game record: no move text"))];
        }
        starts.push(lines.len());
        starts
            .windows(2)
            .map(|w| {
                Record::parse(&lines[w[0]..w[1]].join("\n")).map_err(|e| RecordError {
                    line: e.line + w[0],
                    message: e.message,
                })
            })
            .collect()
    }
}

fn parse_tag(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| format!("tag `{line}` must be `[Name \"value\"]`"))?;
    let (name, value) = inner
        .split_once(' ')
        .ok_or_else(|| format!("tag `{line}` must be `[Name \"value\"]`"))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("tag name `{name}` must be letters, digits or _"));
    }
    let quoted = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .filter(|v| !v.is_empty() || value.len() == 2)
        .ok_or_else(|| format!("value of tag {name} must be in double quotes"))?;
    let mut out = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('\\' | '"')) => out.push(e),
                _ => {
                    return Err(format!(
                        "value of tag {name}: `\\` must be followed by `\\` or `\"`"
                    ));
                }
            },
            '"' => {
                return Err(format!(
                    "value of tag {name}: a `\"` inside must be written `\\\"`"
                ));
            }
            c => out.push(c),
        }
    }
    Ok((name.to_owned(), out))
}

/// Splits move text into tokens with their line numbers; a comment is one token.
fn tokens(body: &str, first_line: usize) -> Result<Vec<(usize, &str)>, RecordError> {
    let mut out = Vec::new();
    let mut line = first_line;
    let mut rest = body;
    loop {
        let trimmed = rest.trim_start_matches(|c: char| {
            if c == '\n' {
                line += 1;
            }
            c.is_whitespace()
        });
        if trimmed.is_empty() {
            return Ok(out);
        }
        let len = if trimmed.starts_with('{') {
            trimmed
                .find('}')
                .map(|i| i + 1)
                .ok_or_else(|| err(line, "comment `{` is never closed by `}`"))?
        } else {
            trimmed
                .find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(trimmed.len())
        };
        let token = &trimmed[..len];
        if token.starts_with('}') {
            return Err(err(line, "`}` without an opening `{`"));
        }
        out.push((line, token));
        line += token.matches('\n').count();
        rest = &trimmed[len..];
    }
}

/// A comment in braces. A brace comment ends at the first `}`, as in PGN, and there is no
/// escape for it, so a `}` inside is written `)`. Line breaks are written `\n`, since a
/// reader takes `\r\n` for one.
fn comment(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    format!("{{{}}}", text.replace('}', ")"))
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            // A tag is one line: control characters (line breaks above all) become spaces.
            let value: String = value
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            let value = value.replace('\\', "\\\\").replace('"', "\\\"");
            writeln!(f, "[{name} \"{value}\"]")?;
        }
        if !self.tags.is_empty() {
            writeln!(f)?;
        }
        let mut tokens: Vec<String> = Vec::new();
        if let Some(c) = &self.intro {
            tokens.push(comment(c));
        }
        let mut black_to_move = self.game.start().turn() == Colour::Black;
        let mut need_number = true;
        for (ply, m) in (self.game.start().ply()..).zip(&self.moves) {
            let turn = if black_to_move {
                Colour::Black
            } else {
                Colour::White
            };
            let number = move_number(ply, turn);
            // A move number and its move are one token, so that no line ends between them.
            tokens.push(if !black_to_move {
                format!("{number}. {}", m.mv)
            } else if need_number {
                format!("{number}... {}", m.mv)
            } else {
                m.mv.to_string()
            });
            need_number = m.comment.is_some();
            if let Some(c) = &m.comment {
                tokens.push(comment(c));
            }
            black_to_move = !black_to_move;
        }
        let result = self
            .tag("Result")
            .unwrap_or_else(|| result_token(self.game.outcome()));
        tokens.push(result.to_owned());
        let mut line = String::new();
        for token in tokens {
            if !line.is_empty() && line.len() + 1 + token.len() > LINE_WIDTH {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            let _ = write!(line, "{token}");
        }
        writeln!(f, "{line}")
    }
}
