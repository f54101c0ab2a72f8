//! Failed sign-ins throttled per login and, at a much higher bar, per client address: after
//! [`FREE_FAILURES`] failures of one login in a row, each further attempt at that login must
//! wait a delay that doubles with every failure (2 s, 4 s, 8 s … up to 15 min), whatever the
//! password. An address waits only after [`ADDRESS_FREE_FAILURES`] failures, whatever the
//! logins: an office behind one address is not locked out by one colleague's typos, while a
//! guesser trying many logins from it still is. An unknown login counts like a known one, so the
//! answer never tells them apart. A success clears its login's count.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Failures of one login allowed before the delay starts.
pub const FREE_FAILURES: u32 = 5;
/// Failures from one client address, of any logins, allowed before its delay starts.
pub const ADDRESS_FREE_FAILURES: u32 = 50;
/// The longest delay.
pub const MAX_DELAY: Duration = Duration::from_mins(15);
/// Failures older than this are forgotten.
const FORGET_AFTER: Duration = Duration::from_hours(1);

#[derive(Debug, Default)]
pub struct LoginThrottle(Mutex<HashMap<String, (u32, Instant)>>);

/// The delay after `failures` failures in a row when `free` are allowed.
pub fn delay_after(failures: u32, free: u32) -> Duration {
    if failures < free {
        return Duration::ZERO;
    }
    let exp = (failures - free + 1).min(20);
    Duration::from_secs(1u64 << exp).min(MAX_DELAY)
}

fn login_key(login: &str) -> String {
    format!("login:{}", login.trim().to_lowercase())
}

fn address_key(address: &str) -> String {
    format!("addr:{address}")
}

impl LoginThrottle {
    /// `Err(wait)` while `login` or `address` must still wait.
    pub fn check(&self, login: &str, address: &str) -> Result<(), Duration> {
        let map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let wait = [
            (login_key(login), FREE_FAILURES),
            (address_key(address), ADDRESS_FREE_FAILURES),
        ]
        .iter()
        .filter_map(|(k, free)| map.get(k).map(|e| (e, *free)))
        .map(|((n, at), free)| delay_after(*n, free).saturating_sub(at.elapsed()))
        .max()
        .unwrap_or_default();
        if wait.is_zero() { Ok(()) } else { Err(wait) }
    }

    pub fn failed(&self, login: &str, address: &str) {
        let mut map = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        map.retain(|_, (_, at)| at.elapsed() < FORGET_AFTER);
        for k in [login_key(login), address_key(address)] {
            let e = map.entry(k).or_insert((0, Instant::now()));
            e.0 += 1;
            e.1 = Instant::now();
        }
    }

    /// A sign-in of `login` succeeded: its failures are forgotten.
    pub fn succeeded(&self, login: &str) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&login_key(login));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delay_starts_after_five_failures_of_a_login_and_doubles() {
        assert_eq!(delay_after(4, FREE_FAILURES), Duration::ZERO);
        assert_eq!(delay_after(5, FREE_FAILURES), Duration::from_secs(2));
        assert_eq!(delay_after(6, FREE_FAILURES), Duration::from_secs(4));
        assert_eq!(delay_after(60, FREE_FAILURES), MAX_DELAY);
        let t = LoginThrottle::default();
        for _ in 0..4 {
            t.failed("Ana", "127.0.0.1");
            assert!(t.check("ana", "127.0.0.1").is_ok());
        }
        t.failed("ana", "127.0.0.1");
        assert!(t.check("ana", "127.0.0.1").is_err());
        // The same login from elsewhere waits too; a colleague at the same address does not.
        assert!(t.check("ana", "10.0.0.9").is_err());
        assert!(t.check("bruno", "127.0.0.1").is_ok());
        t.succeeded("ANA ");
        assert!(t.check("ana", "127.0.0.1").is_ok());
    }

    #[test]
    fn an_address_waits_only_after_many_failures_of_any_logins() {
        let t = LoginThrottle::default();
        for i in 0..ADDRESS_FREE_FAILURES - 1 {
            t.failed(&format!("login{i}"), "192.0.2.1");
        }
        assert!(t.check("ana", "192.0.2.1").is_ok());
        t.failed("outro", "192.0.2.1");
        assert!(t.check("ana", "192.0.2.1").is_err());
        assert!(t.check("ana", "192.0.2.2").is_ok());
    }
}
