//! The `punct` command: one entry point for every tool of the project.

mod cli;
mod commands;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("punct: {e:#}");
            ExitCode::FAILURE
        }
    }
}
