//! Reading the input a line at a time, each line bounded: a line longer than
//! [`LONGEST_LINE`] is read to its end but not kept, so a runaway sender costs time, never
//! memory.

use std::io::{self, BufRead};

/// The longest line kept, in bytes (without its line break): far above any command, a
/// `position … moves …` of tens of thousands of moves included.
pub const LONGEST_LINE: usize = 1 << 20;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Line {
    /// A line of text, without its line break and surrounding white space.
    Text(String),
    /// A line that is not UTF-8.
    NotUtf8,
    /// A line longer than [`LONGEST_LINE`], of this many bytes: not kept.
    TooLong(usize),
}

/// Reads the next line of `input` into `bytes` (cleared first); `None` at the end.
pub(super) fn next_line<R: BufRead>(
    input: &mut R,
    bytes: &mut Vec<u8>,
) -> io::Result<Option<Line>> {
    bytes.clear();
    let mut length = 0;
    let mut ended = false;
    while !ended {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if length == 0 {
                return Ok(None);
            }
            break;
        }
        let (part, taken) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                ended = true;
                (&chunk[..i], i + 1)
            }
            None => (chunk, chunk.len()),
        };
        length += part.len();
        let room = (LONGEST_LINE + 1).saturating_sub(bytes.len());
        bytes.extend_from_slice(&part[..part.len().min(room)]);
        input.consume(taken);
    }
    if length > LONGEST_LINE {
        return Ok(Some(Line::TooLong(length)));
    }
    Ok(Some(match std::str::from_utf8(bytes) {
        Ok(text) => Line::Text(text.trim().to_owned()),
        Err(_) => Line::NotUtf8,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor};

    fn lines(input: &[u8], buffer: usize) -> Vec<Line> {
        let mut input = BufReader::with_capacity(buffer, Cursor::new(input.to_vec()));
        let mut bytes = Vec::new();
        let mut out = Vec::new();
        while let Some(line) = next_line(&mut input, &mut bytes).unwrap() {
            out.push(line);
        }
        out
    }

    #[test]
    fn lines_are_split_trimmed_and_checked() {
        for buffer in [1, 3, 8192] {
            assert_eq!(
                lines(b" isready \r\n\n\xff\nquit", buffer),
                [
                    Line::Text("isready".to_owned()),
                    Line::Text(String::new()),
                    Line::NotUtf8,
                    Line::Text("quit".to_owned()),
                ]
            );
        }
    }

    #[test]
    fn a_line_too_long_is_measured_not_kept() {
        let mut input = vec![b'x'; LONGEST_LINE];
        input.push(b'\n');
        input.extend(vec![b'y'; 3 * LONGEST_LINE + 5]);
        input.extend_from_slice(b"\nisready\n");
        let read = lines(&input, 8192);
        assert_eq!(read.len(), 3);
        assert!(matches!(&read[0], Line::Text(t) if t.len() == LONGEST_LINE));
        assert_eq!(read[1], Line::TooLong(3 * LONGEST_LINE + 5));
        assert_eq!(read[2], Line::Text("isready".to_owned()));
        // What is kept of a long line is bounded, however long it is.
        let mut input = BufReader::new(Cursor::new(vec![b'z'; 4 * LONGEST_LINE]));
        let mut bytes = Vec::new();
        next_line(&mut input, &mut bytes).unwrap();
        assert!(bytes.len() <= LONGEST_LINE + 1);
    }
}
