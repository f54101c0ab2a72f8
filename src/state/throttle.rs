//! Failed sign-ins throttled per login and per client address: after
//! [`FREE_FAILURES`] failures in a row, each further attempt must wait a delay that doubles
//! with every failure (2 s, 4 s, 8 s … up to 15 min), whatever the password. An unknown login
//! counts like a known one, so the answer never tells them apart. A success clears its login.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Failures allowed before the delay starts.
pub const FREE_FAILURES: u32 = 5;
/// The longest delay.
pub const MAX_DELAY: Duration = Duration::from_mins(15);
/// Failures older than this are forgotten.
const FORGET_AFTER: Duration = Duration::from_hours(1);

#[derive(Debug, Default)]
pub struct LoginThrottle(Mutex<HashMap<String, (u32, Instant)>>);

/// The delay after `failures` failures in a row.
pub fn delay_after(failures: u32) -> Duration {
    if failures < FREE_FAILURES {
        return Duration::ZERO;
    }
    let exp = (failures - FREE_FAILURES + 1).min(20);
    Duration::from_secs(1u64 << exp).min(MAX_DELAY)
}

impl LoginThrottle {
    /// `Err(wait)` while any of `keys` must still wait.
    pub fn check(&self, keys: &[String]) -> Result<(), Duration> {
        let map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let wait = keys
            .iter()
            .filter_map(|k| map.get(k))
            .map(|(n, at)| delay_after(*n).saturating_sub(at.elapsed()))
            .max()
            .unwrap_or_default();
        if wait.is_zero() { Ok(()) } else { Err(wait) }
    }

    pub fn failed(&self, keys: &[String]) {
        let mut map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        map.retain(|_, (_, at)| at.elapsed() < FORGET_AFTER);
        for k in keys {
            let e = map.entry(k.clone()).or_insert((0, Instant::now()));
            e.0 += 1;
            e.1 = Instant::now();
        }
    }

    pub fn succeeded(&self, key: &str) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delay_starts_after_five_failures_and_doubles() {
        assert_eq!(delay_after(4), Duration::ZERO);
        assert_eq!(delay_after(5), Duration::from_secs(2));
        assert_eq!(delay_after(6), Duration::from_secs(4));
        assert_eq!(delay_after(60), MAX_DELAY);
        let t = LoginThrottle::default();
        let keys = vec!["login:ana".to_owned(), "addr:127.0.0.1".to_owned()];
        for _ in 0..4 {
            t.failed(&keys);
            assert!(t.check(&keys).is_ok());
        }
        t.failed(&keys);
        assert!(t.check(&keys).is_err());
        // Another login from the same address waits too; the same login from elsewhere too.
        assert!(t.check(&["addr:127.0.0.1".to_owned()]).is_err());
        assert!(
            t.check(&["login:ana".to_owned(), "addr:10.0.0.9".to_owned()])
                .is_err()
        );
        t.succeeded("login:ana");
        assert!(t.check(&["login:ana".to_owned()]).is_ok());
    }
}
