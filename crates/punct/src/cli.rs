//! Command-line arguments.

use clap::{Parser, Subcommand};
use punct_core::Variant;

/// PÜNCT: play, analyse and serve Kris Burm's connection game.
#[derive(Parser, Debug)]
#[command(version, about)]
pub struct Cli {
    /// What to do; without a subcommand, `serve` with its defaults.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Serve the browser app and the JSON/WebSocket API (the default without a subcommand).
    Serve(ServeArgs),
    /// The operator's work on the players' database: reports, mutes, closed accounts
    /// (docs/players.md, "The operator").
    Admin(AdminArgs),
    /// Count move sequences to a depth (a check of the move generator).
    Perft {
        /// Variant of the starting position (ignored with --position).
        #[arg(long, default_value = "standard")]
        variant: Variant,
        /// Position text to start from instead of the empty board.
        #[arg(long)]
        position: Option<String>,
        /// Number of plies, at most 4: with thousands of moves a ply, depth 3 from the
        /// start is already about 10^11 sequences (hours), and each ply more multiplies it
        /// by thousands.
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=4))]
        depth: u32,
        /// Print the count below each legal move first.
        #[arg(long)]
        divide: bool,
    },
    /// Print the canonical list of legal moves of a position.
    ///
    /// Without --position, reads position texts from standard input, one per line, and
    /// prints one line per position with its moves separated by spaces. A line that is not
    /// a position gets an empty line and an error on standard error; the exit status then
    /// fails once all lines are answered.
    Moves {
        /// Position text.
        #[arg(long)]
        position: Option<String>,
    },
    /// Draw a position with levels, reserves and the game status.
    Show {
        /// Position text (default: the empty standard board).
        #[arg(long)]
        position: Option<String>,
    },
    /// Draw a position as a PNG, or a recorded game as an animated GIF (as the web app
    /// shares them).
    Picture(PictureArgs),
    /// Play a game in the terminal, against the computer or a friend at the same keyboard.
    Play(PlayArgs),
    /// Step through a saved game record, with the engine's evaluation on request.
    Review(ReviewArgs),
    /// Speak the engine protocol on standard input and output (for other programs).
    ///
    /// In the manner of UCI, with `pei` as its handshake: `position`, `go` with time,
    /// playout or depth limits, `ponder` and `ponderhit`, `stop`; `help` prints the
    /// commands listed below. A bare `go` searches about one second. A line longer than
    /// 1 MiB is not read, and an error says so.
    #[command(after_help = punct_engine::protocol::COMMANDS)]
    Engine,
    /// Play a match between two players (or a gauntlet: one against several) and report the
    /// score with its error bars.
    Match(MatchArgs),
    /// Make an opening suite for `punct match`: random openings kept when a search calls
    /// them balanced, written to standard output.
    Openings(OpeningsArgs),
    /// Print the bench signature: the node count and a hash of fixed-playout searches over
    /// fixed positions, which a change that only makes the engine faster leaves unchanged.
    Bench {
        /// Playouts per position.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
    },
    /// Train the learned engine, one step at a time (see docs/training.md).
    #[command(subcommand)]
    Train(TrainStep),
    /// Tune search settings by SPSA over fixed-playout game pairs, printing where they
    /// stand; confirm the result with `punct match --sprt`.
    Tune(TuneArgs),
    /// Sign in to a punct server for `punct play --server`: with a name and password (an
    /// API token is made for this terminal) or with `--token`, a token made on the
    /// account page. The token is kept in $XDG_CONFIG_HOME/punct/logins.json (mode 0600).
    Login(LoginArgs),
    /// Forget the sign-in to a server (and revoke its token, when `punct login` made it).
    Logout(LogoutArgs),
    /// Play on a punct server as a bot account (API.md, "Bots"): answer its challenges by
    /// the rules given here and play its games with an engine, this program's at any level
    /// or any program that speaks punct's engine protocol (docs/bots.md).
    Bot(BotArgs),
    /// Play the house bots (the computer levels' bot accounts, docs/bots.md) against a
    /// server from another machine, such as an engine machine, instead of in `punct
    /// serve` (whose nodes then say `--house-bots none`).
    House(HouseArgs),
    /// Do the engine's jobs (computer moves, analyses) for the nodes sharing a PostgreSQL
    /// and started with `--engine workers`, on any machine (docs/deploy.md).
    Worker(WorkerArgs),
}

/// Arguments of `punct login`.
#[derive(clap::Args, Debug)]
pub struct LoginArgs {
    /// The server's address, such as https://punct.example or http://127.0.0.1:8080.
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// An API token made on the account page (`punct_…`), instead of a name and password.
    #[arg(
        long,
        env = "PUNCT_TOKEN",
        hide_env_values = true,
        conflicts_with = "username"
    )]
    pub token: Option<String>,
    /// The account's name (asked for when left out); the password is always asked for,
    /// without showing it (or read from standard input when that is not a terminal).
    #[arg(long)]
    pub username: Option<String>,
}

/// Arguments of `punct logout`.
#[derive(clap::Args, Debug)]
pub struct LogoutArgs {
    /// The server signed in to.
    #[arg(long, value_name = "URL")]
    pub server: String,
}

/// Arguments of `punct tune`.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// A setting to tune as `name,start,c_end` (c_end: its shift at the last iteration,
    /// about the smallest change worth a few Elo), such as `exploration,1.6,0.2`; repeat
    /// for several. Names as `punct engine` lists them after `pei`.
    #[arg(long = "param", required = true)]
    pub params: Vec<String>,
    /// The engine the tuned settings start from, as `punct match` names it (`full`,
    /// `full:policy=learned,refineat=4`); settings not tuned keep its values.
    #[arg(long, default_value = "full")]
    pub base: String,
    /// Iterations, one pair of games each.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: u64,
    /// Learning rate at the last iteration (fishtest's r_end).
    #[arg(long, default_value_t = 0.002)]
    pub r_end: f64,
    /// Playouts per move.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Basic or standard game.
    #[arg(long, default_value = "standard")]
    pub variant: Variant,
    /// Pairs played at once (default: the number of cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub concurrency: Option<u64>,
    /// Seed for the openings, the shifts and the players.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print where the settings stand every this many iterations.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
}

/// The steps of `punct train`, run in this order for one generation.
#[derive(Subcommand, Debug)]
pub enum TrainStep {
    /// Self-play games on every core; sampled positions with their game's result are
    /// written to a dataset file.
    Selfplay {
        /// Games to play.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..))]
        games: u32,
        /// Basic or standard game.
        #[arg(long, default_value = "standard")]
        variant: Variant,
        /// Random moves opening each game.
        #[arg(long, default_value_t = 2)]
        random_plies: u32,
        /// The engine's level, 4 to 9 (the searching levels: their playouts, and their noise
        /// at levels 4-6).
        #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(4..=9))]
        level: u8,
        /// The engine's move priors: `handset`, or `learned` (the compiled-in policy).
        #[arg(long, default_value = "handset", value_parser = ["handset", "learned"])]
        policy: String,
        /// Keep one position every this many plies.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
        every: u32,
        /// Seed of the openings and the engines.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The dataset file to write.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Self-play at full strength on every core, keeping the root visits of each sampled
    /// position's search: targets for the policy to imitate (see docs/training.md).
    Visits {
        /// Games to play.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
        games: u32,
        /// Basic or standard game.
        #[arg(long, default_value = "standard")]
        variant: Variant,
        /// Random moves opening each game.
        #[arg(long, default_value_t = 2)]
        random_plies: u32,
        /// Playouts of each move's search.
        #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// The search's settings, as a player spec gives them after `full:`
        /// (`policy=learned,refineat=4`); none for the engine's defaults.
        #[arg(long, default_value = "")]
        search: String,
        /// Keep one position every this many plies.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        every: u32,
        /// Seed of the openings and the engines.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The dataset file to write.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Judge every legal move of every position of a dataset by the one-ply evaluation,
    /// on every core, and write the labelled dataset.
    Label {
        /// The dataset file to read (from `punct train selfplay`).
        input: std::path::PathBuf,
        /// The labelled dataset file to write.
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Fit the move policy to a labelled dataset; report held-out cross-entropy and top-k
    /// agreement with the one-ply ranking and the root visits, and write the weights file
    /// the engine compiles in.
    Fit {
        /// The labelled dataset file to read (from `punct train label` or `visits`).
        input: std::path::PathBuf,
        /// Passes over the training positions.
        #[arg(long, default_value_t = 8)]
        epochs: usize,
        /// Positions per step.
        #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..))]
        batch: u64,
        /// Adam's step size.
        #[arg(long, default_value_t = 0.02)]
        learning_rate: f64,
        /// The one-ply labels' inverse temperature per cell of value (see docs/training.md).
        #[arg(long, default_value_t = 3.0)]
        sharpness: f32,
        /// The visit target's share of the blend, 0 to 1: 0 fits the one-ply labels alone,
        /// 1 the root visits alone.
        #[arg(long, default_value_t = 0.0)]
        visits: f32,
        /// Hold out one game in this many for the report.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(2..))]
        holdout: u32,
        /// The weights file to write.
        #[arg(
            long,
            default_value = "crates/punct-engine/src/learned/policy_weights.rs"
        )]
        out: std::path::PathBuf,
    },
    /// Fit the value function (the static evaluation) to the games' results in a dataset;
    /// report held-out log-loss against the hand-set evaluation and a constant, and write
    /// the weights file the engine compiles in.
    Value {
        /// The dataset files to read (from `punct train selfplay`; each file's game numbers
        /// are its own).
        #[arg(required = true)]
        inputs: Vec<std::path::PathBuf>,
        /// The L2 penalty per training position on every weight but the intercept.
        #[arg(long, default_value_t = 1e-3)]
        l2: f64,
        /// Hold out one game in this many for the report.
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(2..))]
        holdout: u32,
        /// Hidden units fitted after the linear model (0: a linear value function).
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=256))]
        hidden: u64,
        /// The hidden layer's passes over the training positions.
        #[arg(long, default_value_t = 30)]
        epochs: usize,
        /// The hidden layer's Adam step size.
        #[arg(long, default_value_t = 2e-3)]
        learning_rate: f64,
        /// The L2 penalty on the hidden layer's weights.
        #[arg(long, default_value_t = 1e-4)]
        decay: f64,
        /// The weights file to write.
        #[arg(
            long,
            default_value = "crates/punct-engine/src/learned/value_weights.rs"
        )]
        out: std::path::PathBuf,
    },
}

/// Arguments of `punct picture`.
#[derive(clap::Args, Debug)]
pub struct PictureArgs {
    /// Position text to draw (default: the empty standard board).
    #[arg(long, conflicts_with = "record")]
    pub position: Option<String>,
    /// A record file: its game drawn as a GIF (a `.gif` output), or its last position.
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,
    /// The game of the --record file, counting from 1.
    #[arg(long, default_value_t = 1, requires = "record",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub game: u64,
    /// The picture file to write: `.png`, or `.gif` for a record's whole game.
    #[arg(short, long, value_name = "FILE")]
    pub output: std::path::PathBuf,
    /// Width in pixels (default: 1200 for a PNG, 800 for a GIF).
    #[arg(long)]
    pub width: Option<u32>,
    /// Height in pixels (default: 630 for a PNG, 420 for a GIF).
    #[arg(long)]
    pub height: Option<u32>,
    /// Turn the board half round, Black at the bottom.
    #[arg(long)]
    pub flip: bool,
}

/// Arguments of `punct play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Basic or standard game (a resumed game or a position has its own).
    #[arg(long, default_value = "standard")]
    pub variant: Variant,
    /// Play on from the end of this record file, such as `s` saves.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["variant", "position"])]
    pub resume: Option<std::path::PathBuf>,
    /// The game of the --resume file to play on, counting from 1.
    #[arg(long, default_value_t = 1, requires = "resume",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub game: u64,
    /// Start from this position text (as `punct show --position` takes) instead of the
    /// empty board.
    #[arg(long, conflicts_with = "variant")]
    pub position: Option<String>,
    /// The computer's strength, 1 (a first game) to 9 (full strength).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=9))]
    pub level: u8,
    /// Your colour against the computer: white (moves first) or black.
    #[arg(long, alias = "color", default_value = "white", value_parser = parse_colour)]
    pub colour: punct_core::Colour,
    /// Two people take turns at this keyboard; no computer.
    #[arg(long, conflicts_with_all = ["level", "colour"])]
    pub human: bool,
    /// How long the computer thinks per move, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// Threads the computer searches with, at most twice the machine's cores [default: the
    /// machine's cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub threads: Option<u64>,
    /// Play your games on this punct server instead (signed in with `punct login`): your
    /// live and correspondence games listed, new ones made there.
    #[arg(long, value_name = "URL", conflicts_with_all = ["resume", "position", "human", "level", "colour", "movetime", "threads"])]
    pub server: Option<String>,
}

/// Arguments of `punct review`.
#[derive(clap::Args, Debug)]
pub struct ReviewArgs {
    /// The record file to open: one game, or many one after another (`punct match --records`).
    pub file: std::path::PathBuf,
    /// The game of the file to show first, counting from 1; [ and ] go to the others.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub game: u64,
    /// How long the engine analyses each position shown, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    pub movetime: u64,
}

/// Arguments of `punct match`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// First player: random, greedy, alphabeta, level1 … level9 (full), a level with
    /// settings (full:threads=2, full:threads=2,nodes=600), or cmd:<program> for any
    /// program speaking the engine protocol (such as a baseline, `cmd:baselines/v0/punct
    /// engine`). Scores are this player's.
    pub first: String,
    /// The opponent, named the same way; several make a gauntlet, the first player meeting
    /// each in turn.
    #[arg(required = true, num_args = 1..)]
    pub opponents: Vec<String>,
    /// Number of games against each opponent (rounded up to an even number: each opening with
    /// both colours).
    #[arg(long, default_value_t = 100, value_parser = parse_games)]
    pub games: usize,
    /// Basic or standard game.
    #[arg(long, default_value = "standard")]
    pub variant: Variant,
    /// An opening suite to play instead of the committed one: one opening per line, moves
    /// separated by spaces, `#` for comments (as `punct openings` writes).
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Time per move in milliseconds (100 when neither --nodes nor --clock is given). Levels
    /// 1-8 also stop at their own playout counts (1-3 do not search), so compare them with a
    /// time that never binds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Playouts per move (a budget independent of the machine).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// A clock per player instead: starting time in milliseconds.
    #[arg(long)]
    pub clock: Option<u64>,
    /// Increment per move in milliseconds, with --clock.
    #[arg(long, default_value_t = 0, requires = "clock")]
    pub increment: u64,
    /// Games played at once, each pair on one thread (default: the number of cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub concurrency: Option<u64>,
    /// Seed for the order of the openings and for the players.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Stop early by a GSPRT between two normalised Elo differences, fishtest's test: `0,50`
    /// or `0 50` (H0: the first player is at most 0 nElo stronger; H1: at least 50); a
    /// negative bound as `--sprt -5 0` or `--sprt=-5,0`.
    #[arg(long, num_args = 1..=2, allow_negative_numbers = true, value_name = "NELO0,NELO1")]
    pub sprt: Option<Vec<String>>,
    /// Write every game's record to this file (with a gauntlet, one file per opponent:
    /// `NAME-2.pgn`, `NAME-3.pgn` … after the first).
    #[arg(long)]
    pub records: Option<std::path::PathBuf>,
}

/// Reads `--games`: a positive number.
fn parse_games(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("a match needs at least one game".to_owned()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("`{text}` is not a number of games: {e}")),
    }
}

/// Arguments of `punct openings`.
#[derive(clap::Args, Debug)]
pub struct OpeningsArgs {
    /// Basic or standard game.
    #[arg(long, default_value = "standard")]
    pub variant: Variant,
    /// Openings wanted.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..))]
    pub count: u64,
    /// Random moves in each opening.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=20))]
    pub plies: u64,
    /// Playouts of the full-strength search that judges each opening.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Keep openings whose win chance for the side to move is within this of one half.
    #[arg(long, default_value_t = 0.05)]
    pub tolerance: f32,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Reads `white` or `black`.
fn parse_colour(text: &str) -> Result<punct_core::Colour, String> {
    match text {
        "white" => Ok(punct_core::Colour::White),
        "black" => Ok(punct_core::Colour::Black),
        _ => Err(format!("unknown colour `{text}`: expected white or black")),
    }
}

/// Options of `punct serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: std::net::SocketAddr,
    /// Where the games are kept: an SQLite file, or a PostgreSQL URL
    /// (`postgres://user:password@host/database`) when one machine is outgrown.
    #[arg(long, default_value = "punct.db")]
    pub db: std::path::PathBuf,
    /// Worker threads for the network side [default: one per core, less one]
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub workers: Option<u16>,
    /// Threads each of the computer's searches uses, at most twice the machine's cores; 1
    /// suits a server playing many games at once (docs/server.md)
    #[arg(long, env = "PUNCT_ENGINE_THREADS", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..))]
    pub engine_threads: u16,
    /// How log lines are written to standard error: `human` or `json` (one JSON object per
    /// line). Which lines: `RUST_LOG` (default `info`).
    #[arg(long, default_value = "human")]
    pub log_format: punct_server::ops::logging::LogFormat,
    /// Connections open at once, WebSockets included; past it new ones are refused (503)
    /// [default: 10000, or what the open file limit allows]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: Option<u32>,
    /// No rate limits per client address (on new games, joins and analyses): behind a
    /// reverse proxy every client has the proxy's address.
    #[arg(long)]
    pub no_rate_limits: bool,
    /// For tests: a file holding milliseconds to add to the system clock, watched while the
    /// server runs, so that a test can move the server's time on without waiting.
    #[arg(long, hide = true)]
    pub clock_file: Option<std::path::PathBuf>,
    /// Reached through a reverse proxy alone: believe its `X-Forwarded-Proto` (HTTPS makes
    /// the session cookie `Secure`) and the last address of its `X-Forwarded-For` (the
    /// limits on guessing passwords). Without it both headers are ignored.
    #[arg(long)]
    pub trust_proxy: bool,
    /// This node's name when several servers share one PostgreSQL (docs/deploy.md): a
    /// node started again under its name takes its games back at once [default: the host
    /// name and the port]
    #[arg(long, env = "PUNCT_NODE")]
    pub node: Option<String>,
    /// Where the computer's moves and analyses are searched: `local` (this server's own
    /// threads) or `workers` (`punct worker` processes on the same PostgreSQL; refused with
    /// SQLite)
    #[arg(long, env = "PUNCT_ENGINE", default_value = "local")]
    pub engine: punct_server::engine::EngineMode,
    /// The computer levels this server plays as bot accounts (`punct-level-N`, rated
    /// among the players; docs/bots.md): `all`, `none`, or levels such as `1,5,9`. With
    /// several nodes on one database, one node plays them and the others say `none`.
    #[arg(long, env = "PUNCT_HOUSE_BOTS", default_value = "all", value_parser = house_levels)]
    pub house_bots: HouseLevels,
    /// The house bots keep challenging the level above to rated blitz games, so that
    /// their ratings settle among themselves (a machine's worth of searching)
    #[arg(long)]
    pub house_sparring: bool,
}

/// The levels of `--house-bots`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HouseLevels(pub Vec<punct_engine::Level>);

/// Reads `--house-bots`: `all`, `none`, or levels separated by commas.
fn house_levels(text: &str) -> Result<HouseLevels, String> {
    use punct_engine::Level;
    match text.trim() {
        "all" => return Ok(HouseLevels(Level::all().collect())),
        "none" => return Ok(HouseLevels(Vec::new())),
        _ => {}
    }
    let mut levels = Vec::new();
    for word in text.split(',') {
        let level = word
            .trim()
            .parse::<u8>()
            .ok()
            .and_then(Level::new)
            .ok_or_else(|| {
                format!(
                    "`{}` is not a level: expected all, none, or levels 1 to {} such as 1,5,9",
                    word.trim(),
                    Level::MAX
                )
            })?;
        if !levels.contains(&level) {
            levels.push(level);
        }
    }
    levels.sort();
    Ok(HouseLevels(levels))
}

/// Options of `punct bot`.
#[derive(clap::Args, Debug)]
pub struct BotArgs {
    /// The server's address, such as https://punct.example or http://127.0.0.1:8080.
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// The bot account's API token [default: the one `punct login` kept for the server].
    #[arg(long, env = "PUNCT_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// Who plays: `level1` … `level9`, `full`, a level with settings
    /// (`full:threads=2`), or `cmd:PROGRAM ARGS` for a program speaking the engine
    /// protocol (one started for each game).
    #[arg(long, default_value = "level5")]
    pub engine: String,
    /// The speeds whose challenges are accepted, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "blitz,rapid,classical,correspondence"
    )]
    pub speeds: Vec<String>,
    /// Which challenges are accepted: `rated`, `casual` or `both`.
    #[arg(long, default_value = "both", value_parser = ["rated", "casual", "both"])]
    pub accept: String,
    /// Decline challenges from other bots.
    #[arg(long)]
    pub no_bots: bool,
    /// The most games played at once; challenges beyond are declined.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..))]
    pub max_games: u16,
    /// The longest the engine thinks on a move, in milliseconds, whatever the clock
    /// allows (a game without a clock, or a correspondence game, is given this).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: u64,
    /// Challenge this player once connected (with `--clock` or `--days`, and `--rated`).
    #[arg(long, value_name = "NAME")]
    pub challenge: Option<String>,
    /// The challenge's clock, `MINUTES+SECONDS` (such as `3+2`).
    #[arg(
        long,
        value_name = "MIN+SEC",
        requires = "challenge",
        conflicts_with = "days"
    )]
    pub clock: Option<String>,
    /// The challenge's days per move, for a correspondence game.
    #[arg(long, requires = "challenge")]
    pub days: Option<u32>,
    /// Make the challenge rated.
    #[arg(long, requires = "challenge")]
    pub rated: bool,
}

/// Options of `punct house`.
#[derive(clap::Args, Debug)]
pub struct HouseArgs {
    /// The database the server uses (an SQLite file, or the PostgreSQL URL): the house
    /// bots' accounts and tokens are made there.
    #[arg(long, env = "PUNCT_DB")]
    pub db: std::path::PathBuf,
    /// The server's address, such as https://punct.example or http://127.0.0.1:8080.
    #[arg(long, value_name = "URL")]
    pub server: String,
    /// The levels played: `all`, or levels such as `1,5,9`.
    #[arg(long, default_value = "all", value_parser = house_levels)]
    pub levels: HouseLevels,
    /// Each level challenges the level above to rated blitz games (`punct serve
    /// --house-sparring`).
    #[arg(long)]
    pub sparring: bool,
}

/// Options of `punct worker`.
#[derive(clap::Args, Debug)]
pub struct WorkerArgs {
    /// The PostgreSQL the nodes share (`postgres://user:password@host/database`).
    #[arg(long, env = "PUNCT_DB")]
    pub db: String,
    /// Jobs searched at once, each on a thread and a database connection of its own
    /// [default: one per core]
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Threads each search uses
    #[arg(long, env = "PUNCT_ENGINE_THREADS", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..))]
    pub engine_threads: u16,
    /// Seconds a job stays this worker's without a renewal: should the worker die, another
    /// takes its job again after this long
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u16).range(1..))]
    pub lease: u16,
    /// This worker's name in the queue [default: the host name and the process id]
    #[arg(long, env = "PUNCT_WORKER")]
    pub name: Option<String>,
    /// How log lines are written to standard error: `human` or `json`.
    #[arg(long, default_value = "human")]
    pub log_format: punct_server::ops::logging::LogFormat,
    /// For tests: the nodes' clock file (`punct serve --clock-file`).
    #[arg(long, hide = true)]
    pub clock_file: Option<std::path::PathBuf>,
}

/// Options of `punct admin`.
#[derive(clap::Args, Debug)]
pub struct AdminArgs {
    /// The server's database: an SQLite file or a PostgreSQL URL, as `punct serve --db`.
    #[arg(long, default_value = "punct.db")]
    pub db: std::path::PathBuf,
    /// What to do.
    #[command(subcommand)]
    pub action: AdminAction,
}

/// What `punct admin` does.
#[derive(clap::Subcommand, Debug)]
pub enum AdminAction {
    /// List the open reports of chat messages, oldest first (id, reporter, reported, reason,
    /// the message).
    Reports,
    /// Close report ID (dealt with).
    CloseReport {
        /// The report's id, as `reports` lists it.
        id: String,
    },
    /// Mute a player's chat for some hours.
    Mute {
        /// The player's name.
        name: String,
        /// How long, in hours. A negative number is taken as the value, so that it is
        /// refused as one, naming `--hours`.
        #[arg(long, default_value_t = 24, allow_negative_numbers = true,
              value_parser = clap::value_parser!(u32).range(1..=87_600))]
        hours: u32,
    },
    /// Let a muted player chat again.
    Unmute {
        /// The player's name.
        name: String,
    },
    /// Close an account: it can no longer sign in, its sessions and API tokens end; its games
    /// and ratings stay.
    Close {
        /// The player's name.
        name: String,
    },
    /// Make an account a bot account, played by a program through the API (refused once it
    /// has a game: a person's games and rating stay a person's).
    Bot {
        /// The account's name.
        name: String,
    },
}
