//! The server's log: one line per event on standard error, readable by people or as JSON
//! lines for a log collector, filtered by `RUST_LOG` (default `info`).

use std::io::IsTerminal as _;

use tracing_subscriber::EnvFilter;

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// One readable line per event: time, level, where, message, then the fields.
    #[default]
    Human,
    /// One JSON object per line: `timestamp`, `level`, `message`, `target` and the event's
    /// fields (such as `game`) beside them.
    Json,
}

impl std::str::FromStr for LogFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<LogFormat, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "human" | "text" => Ok(LogFormat::Human),
            "json" => Ok(LogFormat::Json),
            other => Err(format!(
                "unknown log format `{other}`: expected `human` or `json`"
            )),
        }
    }
}

/// Sends the log of the whole process to standard error in `format`, at the levels
/// `RUST_LOG` names (`info` when it is unset). A `RUST_LOG` that cannot be read is said so
/// and `info` is used. Calling it again does nothing: the first call wins.
pub fn init(format: LogFormat) {
    let (filter, bad) = match std::env::var("RUST_LOG") {
        Ok(spec) if !spec.trim().is_empty() => match EnvFilter::try_new(&spec) {
            Ok(filter) => (filter, None),
            Err(e) => (EnvFilter::new("info"), Some(format!("{spec:?}: {e}"))),
        },
        _ => (EnvFilter::new("info"), None),
    };
    // A log line that cannot be written (standard error closed, as when the reader of a
    // pipe is gone) is dropped: the subscriber's own complaint about it would go to the same
    // closed stream and panic, and the panic's log line would then abort the process.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .log_internal_errors(false);
    let installed = match format {
        LogFormat::Human => builder
            .with_ansi(std::io::stderr().is_terminal())
            .try_init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .try_init(),
    };
    if installed.is_err() {
        return;
    }
    if let Some(bad) = bad {
        tracing::warn!("RUST_LOG is not understood, logging at info: {bad}");
    }
    // A panic (caught where it happened, so that the server goes on) is a failure like any
    // other: one line of the log, in its format, rather than free text on standard error.
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| info.payload().downcast_ref::<String>().map(String::as_str))
            .unwrap_or("(no message)");
        let location = info.location().map(ToString::to_string).unwrap_or_default();
        let thread = std::thread::current();
        let thread = thread.name().unwrap_or("unnamed");
        tracing::error!(%location, thread, "panicked: {message}");
    }));
}

#[cfg(test)]
mod tests {
    use super::LogFormat;

    #[test]
    fn formats_are_named_and_others_refused_with_the_choices() {
        assert_eq!("json".parse(), Ok(LogFormat::Json));
        assert_eq!("JSON".parse(), Ok(LogFormat::Json));
        assert_eq!("human".parse(), Ok(LogFormat::Human));
        let refused = "xml".parse::<LogFormat>().unwrap_err();
        assert!(
            refused.contains("`xml`") && refused.contains("`json`"),
            "{refused}"
        );
    }
}
