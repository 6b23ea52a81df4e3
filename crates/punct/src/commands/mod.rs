//! One module per subcommand; each turns parsed arguments into work on the libraries.

mod admin;
mod bench;
mod bot;
mod engine;
mod login;
mod match_;
mod moves;
mod openings;
mod perft;
mod picture;
mod play;
mod review;
mod serve;
mod show;
mod train;
mod tune;
mod worker;

use anyhow::Context as _;
use punct_core::{Position, Variant};

use crate::cli::{Cli, Command};

/// Runs the chosen subcommand.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    let Some(command) = cli.command else {
        return serve::run(serve::defaults());
    };
    match command {
        Command::Serve(args) => serve::run(args),
        Command::Admin(args) => admin::run(args),
        Command::Perft {
            variant,
            position,
            depth,
            divide,
        } => perft::run(&start(position.as_deref(), variant)?, depth, divide),
        Command::Moves { position } => moves::run(position.as_deref()),
        Command::Show { position } => show::run(&start(position.as_deref(), Variant::Standard)?),
        Command::Picture(args) => picture::run(args),
        Command::Play(args) => play::run(args),
        Command::Review(args) => review::run(args),
        Command::Engine => engine::run(),
        Command::Match(args) => match_::run(args),
        Command::Openings(args) => openings::run(args),
        Command::Bench { nodes } => bench::run(nodes),
        Command::Train(step) => train::run(step),
        Command::Tune(args) => tune::run(args),
        Command::Login(args) => login::login(args),
        Command::Logout(args) => login::logout(args),
        Command::Worker(args) => worker::run(args),
        Command::Bot(args) => bot::run(args),
        Command::House(args) => bot::house::run(args),
    }
}

/// The position given as text, or the empty board of `variant`.
fn start(text: Option<&str>, variant: Variant) -> anyhow::Result<Position> {
    match text {
        Some(text) => Position::from_text(text).with_context(|| format!("in position `{text}`")),
        None => Ok(Position::new(variant)),
    }
}
