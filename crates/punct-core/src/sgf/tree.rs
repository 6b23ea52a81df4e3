//! The SGF syntax, without any game's meaning: a collection of game trees, each a sequence
//! of nodes holding properties `Name[value][value]…`.
//!
//! Each game is read on its own, so that a damaged game is reported and the games after it
//! are still read: after an error the reader starts again at the next `(` that opens a game
//! (`(;`).

use super::SgfError;

/// One property of a node: its name and its values, unescaped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Property {
    /// The name, e.g. `P0` or `GM` (letters, then letters or digits).
    pub(crate) name: String,
    /// The values, `\`-escapes removed.
    pub(crate) values: Vec<String>,
    /// 1-based line of the name.
    pub(crate) line: usize,
}

/// A node: the properties after one `;`, in order (a name may occur more than once).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Node {
    pub(crate) properties: Vec<Property>,
}

impl Node {
    /// The values of every property named `name`, in order, with their lines.
    pub(crate) fn values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = (&'a str, usize)> {
        self.properties
            .iter()
            .filter(move |p| p.name == name)
            .flat_map(|p| p.values.iter().map(move |v| (v.as_str(), p.line)))
    }

    /// The first value of `name`.
    pub(crate) fn first<'a>(&'a self, name: &'a str) -> Option<(&'a str, usize)> {
        self.values(name).next()
    }
}

/// One game: its nodes in order (Boardspace's records have no variations), and the line
/// its `(` is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GameTree {
    pub(crate) nodes: Vec<Node>,
    pub(crate) line: usize,
}

/// Reads every game of a collection, each as a tree or the reason it could not be read.
/// Text between games other than white space is reported as an entry of its own.
pub(crate) fn collection(text: &str) -> Vec<Result<GameTree, SgfError>> {
    let mut reader = Reader {
        text,
        at: 0,
        line: 1,
    };
    let mut games = Vec::new();
    loop {
        reader.skip_space();
        match reader.peek() {
            None => return games,
            Some('(') => {
                let start = reader.at;
                let game = reader.game();
                if game.is_err() {
                    reader.resync(start);
                }
                games.push(game);
            }
            Some(_) => {
                let line = reader.line;
                let junk: String = reader
                    .rest()
                    .split(char::is_whitespace)
                    .next()
                    .unwrap_or_default()
                    .chars()
                    .take(20)
                    .collect();
                games.push(Err(SgfError::new(
                    line,
                    format!("`{junk}` is outside any game: a game starts with `(;`"),
                )));
                reader.resync(reader.at);
            }
        }
    }
}

struct Reader<'a> {
    text: &'a str,
    /// Byte offset of the next character.
    at: usize,
    /// 1-based line of the next character.
    line: usize,
}

impl Reader<'_> {
    fn rest(&self) -> &str {
        &self.text[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    /// Skips white space (and a byte-order mark, which some editors put first).
    fn skip_space(&mut self) {
        while self
            .peek()
            .is_some_and(|c| c.is_whitespace() || c == '\u{feff}')
        {
            self.bump();
        }
    }

    /// Moves past `start`, where reading failed, to the next `(;` (or the end), where the
    /// next game presumably starts.
    fn resync(&mut self, start: usize) {
        if self.at == start {
            self.bump();
        }
        while !self.rest().is_empty() && !self.rest().starts_with("(;") {
            self.bump();
        }
    }

    /// One game tree, from its `(` to its `)`. Variations are read (without recursion,
    /// so that no nesting can exhaust the stack), so that the game ends where it should,
    /// and then refused.
    fn game(&mut self) -> Result<GameTree, SgfError> {
        let line = self.line;
        self.bump();
        let mut nodes = Vec::new();
        // How many variations are open, and the line of the first.
        let (mut depth, mut variation) = (0usize, None);
        loop {
            self.skip_space();
            match self.peek() {
                Some(';') => {
                    self.bump();
                    let node = self.node()?;
                    if depth == 0 {
                        nodes.push(node);
                    }
                }
                Some(')') if nodes.is_empty() => {
                    return Err(SgfError::new(self.line, "a game with no node: `()`"));
                }
                Some(')') => {
                    self.bump();
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                }
                Some('(') if !nodes.is_empty() => {
                    self.bump();
                    variation.get_or_insert(self.line);
                    depth += 1;
                }
                Some(c) => {
                    return Err(SgfError::new(
                        self.line,
                        format!("unexpected `{c}`: expected `;` before a node or `)`"),
                    ));
                }
                None => {
                    return Err(SgfError::new(
                        self.line,
                        format!("the game opened on line {line} is never closed by `)`"),
                    ));
                }
            }
        }
        match variation {
            Some(at) => Err(SgfError::new(
                at,
                "a variation (`(` inside a game): Boardspace's records have none, \
                 and only one line of play can be read",
            )),
            None => Ok(GameTree { nodes, line }),
        }
    }

    /// The properties of one node, after its `;`.
    fn node(&mut self) -> Result<Node, SgfError> {
        let mut node = Node::default();
        loop {
            self.skip_space();
            match self.peek() {
                Some(c) if c.is_ascii_alphabetic() => node.properties.push(self.property()?),
                _ => return Ok(node),
            }
        }
    }

    fn property(&mut self) -> Result<Property, SgfError> {
        let line = self.line;
        let mut name = String::new();
        while let Some(c) = self.peek().filter(char::is_ascii_alphanumeric) {
            name.push(c);
            self.bump();
        }
        let mut values = Vec::new();
        loop {
            self.skip_space();
            if self.peek() != Some('[') {
                break;
            }
            values.push(self.value()?);
        }
        if values.is_empty() {
            return Err(SgfError::new(
                line,
                format!("property `{name}` has no value: expected `{name}[…]`"),
            ));
        }
        Ok(Property { name, values, line })
    }

    /// A value in brackets; `\` escapes the next character, and `\` before a line break
    /// removes both (SGF's soft line break).
    fn value(&mut self) -> Result<String, SgfError> {
        let line = self.line;
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                Some(']') => return Ok(value),
                Some('\\') => match self.bump() {
                    Some('\r') => {
                        if self.peek() == Some('\n') {
                            self.bump();
                        }
                    }
                    Some('\n') => {}
                    Some(c) => value.push(c),
                    None => break,
                },
                Some(c) => value.push(c),
                None => break,
            }
        }
        Err(SgfError::new(
            line,
            "a value opened with `[` is never closed by `]`",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_nodes_properties_and_escapes() {
        let games = collection("\u{feff}(;GM[25]P0[id \"a\\]b\"]\r\n; P0[1 Done ]TM[0]\n;\n)");
        let game = games[0].as_ref().unwrap();
        assert_eq!(game.nodes.len(), 3);
        assert_eq!(game.nodes[0].first("P0"), Some(("id \"a]b\"", 1)));
        assert_eq!(game.nodes[1].first("P0"), Some(("1 Done ", 2)));
        assert_eq!(game.nodes[1].first("TM"), Some(("0", 2)));
        assert!(game.nodes[2].properties.is_empty());
    }

    #[test]
    fn repeated_names_keep_every_value() {
        let games = collection("(;P0[id \"x\"]P0[ranking 1500]AB[a][b])");
        let root = &games[0].as_ref().unwrap().nodes[0];
        let p0: Vec<&str> = root.values("P0").map(|(v, _)| v).collect();
        assert_eq!(p0, ["id \"x\"", "ranking 1500"]);
        assert_eq!(root.values("AB").count(), 2);
    }

    #[test]
    fn a_damaged_game_does_not_hide_the_next() {
        let games =
            collection("(;GM[25])\n(;GM[25]P0 (;GM[25])junk\n(;GM[25](;B[aa])(;B[bb]))\n(;GM[25");
        let lines: Vec<Result<usize, String>> = games
            .iter()
            .map(|g| g.as_ref().map(|g| g.line).map_err(|e| e.to_string()))
            .collect();
        assert_eq!(lines[0], Ok(1));
        assert!(lines[1].as_ref().unwrap_err().contains("`P0` has no value"));
        assert_eq!(lines[2], Ok(2));
        assert!(lines[3].as_ref().unwrap_err().contains("`junk` is outside"));
        assert!(lines[4].as_ref().unwrap_err().contains("variation"));
        assert!(
            lines[5]
                .as_ref()
                .unwrap_err()
                .contains("never closed by `]`")
        );
        assert_eq!(games.len(), 6);
    }
}
