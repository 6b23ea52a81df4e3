//! Which challenges a bot accepts: its speeds, rated or casual, from bots or not, and how
//! many games it plays at once.

use punct_tui::online::wire::Challenge;

/// A bot's rules for challenges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The speeds accepted.
    pub speeds: Vec<String>,
    /// Rated only (`Some(true)`), casual only (`Some(false)`), or both.
    pub rated: Option<bool>,
    /// Whether challenges from other bots are accepted.
    pub bots: bool,
    /// The most games at once.
    pub max_games: usize,
}

/// The speeds there are.
pub const SPEEDS: [&str; 4] = ["blitz", "rapid", "classical", "correspondence"];

impl Rules {
    /// The rules of the command line's words, or what is wrong with them.
    pub fn new(
        speeds: &[String],
        accept: &str,
        bots: bool,
        max_games: usize,
    ) -> Result<Rules, String> {
        let mut kept = Vec::new();
        for speed in speeds {
            let speed = speed.trim().to_ascii_lowercase();
            if !SPEEDS.contains(&speed.as_str()) {
                return Err(format!(
                    "unknown speed `{speed}` in --speeds: expected {}",
                    SPEEDS.join(", ")
                ));
            }
            kept.push(speed);
        }
        let rated = match accept {
            "rated" => Some(true),
            "casual" => Some(false),
            _ => None,
        };
        Ok(Rules {
            speeds: kept,
            rated,
            bots,
            max_games,
        })
    }

    /// Why `challenge` is declined while `playing` games are being played, if it is.
    pub fn refuse(&self, challenge: &Challenge, playing: usize) -> Option<String> {
        if !self.speeds.contains(&challenge.speed) {
            return Some(format!("{} games are not played here", challenge.speed));
        }
        match self.rated {
            Some(true) if !challenge.rated => return Some("rated games only".to_owned()),
            Some(false) if challenge.rated => return Some("casual games only".to_owned()),
            _ => {}
        }
        if challenge.from_bot && !self.bots {
            return Some("no games against other bots".to_owned());
        }
        if playing >= self.max_games {
            return Some(format!("{playing} games being played, the most at once"));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn challenge(speed: &str, rated: bool, from_bot: bool) -> Challenge {
        Challenge {
            id: "c".into(),
            from: "someone".into(),
            from_bot,
            to: "bot".into(),
            speed: speed.into(),
            rated,
        }
    }

    #[test]
    fn challenges_are_taken_by_speed_rating_kind_and_room() {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let rules = Rules::new(&words(&["Blitz", "rapid"]), "rated", false, 2).unwrap();
        assert_eq!(rules.refuse(&challenge("blitz", true, false), 0), None);
        assert_eq!(rules.refuse(&challenge("rapid", true, false), 1), None);
        assert!(
            rules
                .refuse(&challenge("classical", true, false), 0)
                .is_some()
        );
        assert!(rules.refuse(&challenge("blitz", false, false), 0).is_some());
        assert!(rules.refuse(&challenge("blitz", true, true), 0).is_some());
        assert!(rules.refuse(&challenge("blitz", true, false), 2).is_some());
        let casual = Rules::new(&words(&["correspondence"]), "casual", true, 1).unwrap();
        assert_eq!(
            casual.refuse(&challenge("correspondence", false, true), 0),
            None
        );
        assert!(
            casual
                .refuse(&challenge("correspondence", true, true), 0)
                .is_some()
        );
        let both = Rules::new(&words(&["blitz"]), "both", true, 1).unwrap();
        assert_eq!(both.refuse(&challenge("blitz", true, false), 0), None);
        assert_eq!(both.refuse(&challenge("blitz", false, false), 0), None);
        let wrong = Rules::new(&words(&["bullet"]), "both", true, 1).unwrap_err();
        assert!(wrong.contains("bullet"), "{wrong}");
    }
}
