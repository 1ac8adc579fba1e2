//! The `Date` tag's dates: `YYYY.MM.DD`, a part not known written as `?`s (`2026.??.??`,
//! `2026.03.??`), every known part on the calendar (no 2026.02.31). The one check of a date
//! in the workspace: `bao new`, `bao record`, the club server and the AbstractPlay import
//! all ask it.

use jiff::civil::Date;

/// Whether `s` is a date as the Date tag writes it: `YYYY.MM.DD`, any part possibly all
/// `?`s, and the known parts a real date (the calendar's, proleptic Gregorian): a day the
/// month has (the 29th of February in a leap year), and where the year or the month is not
/// known, a day some year or month has.
///
/// ```
/// use bao_notation::date::valid_date;
///
/// assert!(valid_date("2026.11.29") && valid_date("2026.??.??") && valid_date("2026.03.??"));
/// assert!(valid_date("2028.02.29") && valid_date("????.02.29"));
/// assert!(!valid_date("2026.02.31") && !valid_date("2026.02.29") && !valid_date("2026.13.01"));
/// assert!(!valid_date("2026-11-29") && !valid_date("2026.3.1"));
/// ```
#[must_use]
pub fn valid_date(s: &str) -> bool {
    let mut parts = s.split('.');
    let (Some(y), Some(m), Some(d), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let (Some(year), Some(month), Some(day)) = (part(y, 4), part(m, 2), part(d, 2)) else {
        return false;
    };
    // A part not known is one that makes the date a real one if any does: a leap year,
    // a month of 31 days, the first of the month.
    let year = year.unwrap_or(2000);
    let month = month.unwrap_or(1);
    let day = day.unwrap_or(1);
    match (i16::try_from(year), i8::try_from(month), i8::try_from(day)) {
        (Ok(y), Ok(m), Ok(d)) => Date::new(y, m, d).is_ok(),
        _ => false,
    }
}

/// A part of `len` characters: `Some(Some(n))` for digits, `Some(None)` for all `?`s,
/// `None` for anything else.
fn part(p: &str, len: usize) -> Option<Option<u32>> {
    if p.len() != len {
        return None;
    }
    if p.bytes().all(|b| b == b'?') {
        return Some(None);
    }
    if !p.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    p.parse().ok().map(Some)
}

/// Today's date (UTC) as the Date tag writes it, `YYYY.MM.DD`.
#[must_use]
pub fn today() -> String {
    let date = jiff::tz::Offset::UTC
        .to_datetime(jiff::Timestamp::now())
        .date();
    format!("{:04}.{:02}.{:02}", date.year(), date.month(), date.day())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_dates_and_partial_ones() {
        for ok in [
            "2026.11.29",
            "2026.??.??",
            "2026.03.??",
            "????.??.??",
            "????.12.31",
            "2026.??.31",
            "2024.02.29",
            "2000.02.29",
            "0001.01.01",
        ] {
            assert!(valid_date(ok), "{ok}");
        }
        for bad in [
            "2026.02.31",
            "2026.04.31",
            "2026.02.29",
            "1900.02.29",
            "2026.00.10",
            "2026.01.32",
            "2026.13.01",
            "2026.??.32",
            "????.02.30",
            "2026-11-29",
            "26.11.29",
            "2026.1.01",
            "2026.11.29.",
            "2026.1?.01",
            "+026.11.29",
            "",
        ] {
            assert!(!valid_date(bad), "{bad}");
        }
    }

    #[test]
    fn today_is_a_date() {
        let t = today();
        assert!(valid_date(&t), "{t}");
        assert!(t.as_str() >= "2026.01.01", "{t}");
    }
}
