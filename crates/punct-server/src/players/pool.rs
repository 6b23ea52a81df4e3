//! Quick pairing: the players waiting in one pool (one time control) are paired, the nearest
//! ratings first, each within a range of ratings that widens the longer they wait. A pure
//! function of the entries and the time, so that any node pairing the same pool pairs it
//! the same way.

/// The rating range of a player who has just joined: ± this.
pub const START_RANGE: f64 = 100.0;

/// How much the range widens per second of waiting: after half a minute ±550, after two
/// minutes ±1900 (anyone, in practice), since PÜNCT's players are few.
pub const WIDENING_PER_SECOND: f64 = 15.0;

/// A player waiting in a pool.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry<P> {
    /// Who waits.
    pub player: P,
    /// Their rating in the pool's speed.
    pub rating: f64,
    /// When they joined, ms since the epoch.
    pub joined_ms: i64,
}

/// How far from its rating an entry that joined at `joined_ms` accepts an opponent at
/// `now_ms`.
pub fn range(joined_ms: i64, now_ms: i64) -> f64 {
    let waited_s = (now_ms.saturating_sub(joined_ms)).max(0) as f64 / 1000.0;
    START_RANGE + WIDENING_PER_SECOND * waited_s
}

/// The pairs to make among `entries` at `now_ms`, as indices into it: two entries pair when
/// each one's range holds the other's rating, the two players differ and `compatible`
/// allows them (blocks); the nearest ratings are paired first, ties going to who waited
/// longest, then to the order of the entries. Each entry is in at most one pair.
pub fn pair<P: PartialEq>(
    entries: &[Entry<P>],
    now_ms: i64,
    compatible: impl Fn(&P, &P) -> bool,
) -> Vec<(usize, usize)> {
    let mut candidates = Vec::new();
    for (i, a) in entries.iter().enumerate() {
        for (j, b) in entries.iter().enumerate().skip(i + 1) {
            let distance = (a.rating - b.rating).abs();
            let reach = range(a.joined_ms, now_ms).min(range(b.joined_ms, now_ms));
            if a.player != b.player && distance <= reach && compatible(&a.player, &b.player) {
                candidates.push((distance, a.joined_ms.min(b.joined_ms), i, j));
            }
        }
    }
    candidates.sort_by(|x, y| {
        x.0.total_cmp(&y.0)
            .then((x.1, x.2, x.3).cmp(&(y.1, y.2, y.3)))
    });
    let mut taken = vec![false; entries.len()];
    let mut pairs = Vec::new();
    for (_, _, i, j) in candidates {
        if !taken[i] && !taken[j] {
            taken[i] = true;
            taken[j] = true;
            pairs.push((i, j));
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn entry(player: u32, rating: f64, joined_ms: i64) -> Entry<u32> {
        Entry {
            player,
            rating,
            joined_ms,
        }
    }

    fn any(_: &u32, _: &u32) -> bool {
        true
    }

    #[test]
    fn the_nearest_ratings_pair_first() {
        let entries = [
            entry(1, 1500.0, 0),
            entry(2, 1580.0, 0),
            entry(3, 1520.0, 0),
            entry(4, 1600.0, 0),
        ];
        assert_eq!(pair(&entries, 0, any), [(0, 2), (1, 3)]);
    }

    #[test]
    fn the_range_widens_with_waiting() {
        let entries = [entry(1, 1500.0, 0), entry(2, 1800.0, 0)];
        assert!(pair(&entries, 0, any).is_empty());
        assert!(pair(&entries, 10_000, any).is_empty());
        // 100 + 15 × 14 = 310 ≥ 300.
        assert_eq!(pair(&entries, 14_000, any), [(0, 1)]);
        // Both ranges must reach: a newcomer's is narrow.
        let entries = [entry(1, 1500.0, 0), entry(2, 1800.0, 60_000)];
        assert!(pair(&entries, 60_000, any).is_empty());
    }

    #[test]
    fn nobody_pairs_with_themselves_or_a_blocked_player() {
        let entries = [entry(1, 1500.0, 0), entry(1, 1500.0, 0)];
        assert!(pair(&entries, 0, any).is_empty());
        let entries = [
            entry(1, 1500.0, 0),
            entry(2, 1500.0, 0),
            entry(3, 1550.0, 0),
        ];
        let not_1_and_2 = |a: &u32, b: &u32| !matches!((a, b), (1, 2) | (2, 1));
        assert_eq!(pair(&entries, 0, not_1_and_2), [(0, 2)]);
    }

    #[test]
    fn ties_go_to_who_waited_longest() {
        let entries = [
            entry(1, 1500.0, 5_000),
            entry(2, 1550.0, 1_000),
            entry(3, 1450.0, 0),
        ];
        assert_eq!(pair(&entries, 6_000, any), [(0, 2)]);
    }

    proptest! {
        /// Every pair is of two different entries within both ranges, no entry is in two
        /// pairs, the same entries pair the same way, and no two entries left over could
        /// have paired.
        #[test]
        fn pairs_are_sound_and_maximal(
            raw in proptest::collection::vec((0u32..20, 1000.0..2200.0f64, 0i64..60_000), 0..40),
            now in 0i64..120_000,
        ) {
            let entries: Vec<_> = raw.iter().map(|&(p, r, j)| entry(p, r, j)).collect();
            let pairs = pair(&entries, now, any);
            prop_assert_eq!(&pairs, &pair(&entries, now, any));
            let mut used = vec![false; entries.len()];
            for &(i, j) in &pairs {
                prop_assert!(!used[i] && !used[j]);
                used[i] = true;
                used[j] = true;
                let (a, b) = (&entries[i], &entries[j]);
                prop_assert!(a.player != b.player);
                let reach = range(a.joined_ms, now).min(range(b.joined_ms, now));
                prop_assert!((a.rating - b.rating).abs() <= reach);
            }
            let left: Vec<usize> = (0..entries.len()).filter(|&i| !used[i]).collect();
            for (x, &i) in left.iter().enumerate() {
                for &j in &left[x + 1..] {
                    let (a, b) = (&entries[i], &entries[j]);
                    let reach = range(a.joined_ms, now).min(range(b.joined_ms, now));
                    prop_assert!(a.player == b.player || (a.rating - b.rating).abs() > reach);
                }
            }
        }
    }
}
