//! Input repeated in error messages, made safe to print: a pasted 10 MB line comes back
//! as its start and its length, and control characters (a terminal's escape sequences
//! above all) come back escaped rather than acted on.

/// Most characters of one quoted piece of input an error message repeats.
const MOST_QUOTED: usize = 40;

/// Most characters of an error message, whatever it quotes.
const MOST_SAID: usize = 400;

/// `message` as an error line may say it. Every piece quoted in backticks, as the messages
/// of this crate and of `punct_core` quote input, is cut after [`MOST_QUOTED`] characters
/// with `…` and its length in bytes after it; control characters are escaped (`\u{1b}`,
/// `\t`); and a message still longer than [`MOST_SAID`] characters is cut, saying so.
pub(super) fn printable(message: &str) -> String {
    let pieces: Vec<&str> = message.split('`').collect();
    let mut said = String::with_capacity(message.len().min(4 * MOST_SAID));
    // The length of a quoted piece that was cut, said after its closing backtick.
    let mut cut = None;
    for (i, piece) in pieces.iter().enumerate() {
        if i > 0 {
            said.push('`');
        }
        if let Some(bytes) = cut.take() {
            said.push_str(&format!(" ({bytes} bytes)"));
        }
        // Odd pieces lie between backticks, unless the last backtick is never closed.
        let quoted = i % 2 == 1 && i + 1 < pieces.len();
        if quoted && piece.chars().nth(MOST_QUOTED).is_some() {
            escape_into(&mut said, piece.chars().take(MOST_QUOTED));
            said.push('…');
            cut = Some(piece.len());
        } else {
            escape_into(&mut said, piece.chars());
        }
    }
    match said.char_indices().nth(MOST_SAID) {
        Some((end, _)) => format!(
            "{}… (cut: {} characters in all)",
            &said[..end],
            said.chars().count()
        ),
        None => said,
    }
}

/// Writes `chars` with each control character escaped.
fn escape_into(out: &mut String, chars: impl Iterator<Item = char>) {
    for c in chars {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_plain_messages_are_unchanged() {
        let message = "unknown command `frobnicate`";
        assert_eq!(printable(message), message);
        assert_eq!(
            printable("expected `perft <depth>`"),
            "expected `perft <depth>`"
        );
    }

    #[test]
    fn a_long_quoted_piece_is_cut_and_its_length_said() {
        let long = "x".repeat(5_000_000);
        let said = printable(&format!("unknown command `{long}`: see help"));
        assert_eq!(
            said,
            format!(
                "unknown command `{}…` (5000000 bytes): see help",
                "x".repeat(40)
            )
        );
        // Characters, not bytes, are counted: a cut never splits one.
        let said = printable(&format!("bad `{}`", "ü".repeat(50)));
        assert_eq!(said, format!("bad `{}…` (100 bytes)", "ü".repeat(40)));
    }

    #[test]
    fn control_characters_are_escaped() {
        let said = printable("unknown command `\u{1b}[2J\u{7}x\r`");
        assert_eq!(said, "unknown command `\\u{1b}[2J\\u{7}x\\r`");
        assert!(!said.chars().any(char::is_control));
    }

    #[test]
    fn an_unclosed_quote_or_a_long_message_is_still_bounded() {
        let said = printable(&format!("odd ` {}", "y".repeat(10_000)));
        assert!(said.chars().count() < 450, "{said}");
        assert!(said.ends_with("(cut: 10006 characters in all)"), "{said}");
        let many: String = (0..100).map(|_| format!("`{}` ", "z".repeat(50))).collect();
        assert!(printable(&many).chars().count() < 450);
    }
}
