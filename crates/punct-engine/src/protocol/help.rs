//! The list of commands, which `help` prints and `punct engine --help` shows.

/// The commands of `punct engine`, as `help` prints them.
pub const COMMANDS: &str = "\
Commands, one a line, answered in the manner of UCI (docs/engine.md has more):
  pei                     the handshake (UCI's `uci`): id lines, one option line
                          per option with its default and range, then peiok
  isready                 readyok, at once, also while searching
  setoption name <name> value <value>
  newgame [basic|standard]
                          a new game on the empty board; forgets the search tree
  position startpos [basic|standard] [moves <move> ...]
  position pos <variant> <side> <ply> <pieces> [moves <move> ...]
                          the position to search; after one is refused none is
                          held, and go refuses, until a valid one comes
  go [<limits>]           search: info lines, bestmove <move> [ponder <move>]
    movetime <ms>         think this long
    nodes <n>             this many playouts
    depth <d>             2^d playouts, d 1 to 32 (a tree has no fixed depth)
    wtime <ms> btime <ms> [winc <ms> binc <ms>] [movestogo <n>]
                          a share of the clock of the side to move
    infinite              until stop, whatever the position
    ponder                on the opponent's time, until ponderhit or stop
    (no limits)           about one second
  ponderhit               the move pondered on was played: search on, now within
                          go's limits
  stop                    end the search (its bestmove follows) or a perft
  quit                    end the program, also in the middle of a search
  validmoves              the legal moves on one line
  perft <depth>           count the move sequences of depth plies (4 at most)
  show                    the position text, a board drawing, the game's status
  help                    this list";
