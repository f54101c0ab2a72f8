//! Reminders before an expiry: how many days before it a holder is written to (60, 30 and 7
//! by default, from the municipality profile), and which of them is due on a day. Pure.

use chrono::NaiveDate;

/// The days before an expiry on which a reminder is sent, unless the profile says otherwise.
pub const DEFAULT_DAYS_BEFORE: [u32; 3] = [60, 30, 7];

/// The reminder due on `today` for an expiry on `due` (its last day of validity): the
/// smallest number of days before it that `today` has reached, while the expiry has not
/// passed; `None` before the first or after the expiry. A reminder skipped (the service was
/// down, or the record appeared late) is not sent late: only the nearest one is.
pub fn reminder_due(days_before: &[u32], due: NaiveDate, today: NaiveDate) -> Option<u32> {
    let left = (due - today).num_days();
    if left < 0 {
        return None;
    }
    days_before
        .iter()
        .copied()
        .filter(|d| i64::from(*d) >= left)
        .min()
}

/// The profile's days before: each from 1 to 366, none repeated.
pub fn check_days_before(days: &[u32]) -> Result<(), String> {
    if let Some(d) = days.iter().find(|d| !(1..=366).contains(*d)) {
        return Err(format!("lembretes: {d} dias antes não é de 1 a 366"));
    }
    let mut sorted = days.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != days.len() {
        return Err("lembretes: um número de dias aparece duas vezes".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn the_nearest_reminder_reached_is_the_one_due() {
        let due = d(2027, 1, 31);
        let at = |today| reminder_due(&DEFAULT_DAYS_BEFORE, due, today);
        assert_eq!(at(d(2026, 11, 1)), None); // 91 days before
        assert_eq!(at(d(2026, 12, 1)), None); // 61 days before
        assert_eq!(at(d(2026, 12, 2)), Some(60)); // exactly 60
        assert_eq!(at(d(2026, 12, 20)), Some(60));
        assert_eq!(at(d(2027, 1, 1)), Some(30));
        assert_eq!(at(d(2027, 1, 24)), Some(7));
        assert_eq!(at(d(2027, 1, 31)), Some(7)); // the last day
        assert_eq!(at(d(2027, 2, 1)), None); // expired
        // Down from 61 to 20 days before: only the 30-day reminder, not the 60-day one.
        assert_eq!(at(d(2027, 1, 11)), Some(30));
        assert_eq!(reminder_due(&[], due, d(2027, 1, 30)), None);
    }

    #[test]
    fn the_profiles_days_are_checked() {
        assert!(check_days_before(&DEFAULT_DAYS_BEFORE).is_ok());
        assert!(check_days_before(&[]).is_ok());
        assert!(check_days_before(&[0]).is_err());
        assert!(check_days_before(&[400]).is_err());
        assert!(check_days_before(&[30, 30]).is_err());
    }
}
