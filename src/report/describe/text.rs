//! The lines `describe` writes before its tabwriter aligns them (kubectl's `PrefixWriter`:
//! two spaces a level, a tab after each title), and the small readings of the Pod's JSON they
//! need.

use std::time::UNIX_EPOCH;

use serde_json::Value;

use crate::escape::escape;

/// Tab-separated lines, each value escaped.
#[derive(Default)]
pub(super) struct Lines {
    pub text: String,
}

impl Lines {
    fn indent(&mut self, level: usize) {
        self.text.push_str(&"  ".repeat(level));
    }

    /// `Title:<tab>value`.
    pub fn field(&mut self, level: usize, title: &str, value: &str) {
        self.indent(level);
        self.text.push_str(&format!("{title}:\t{}\n", escape(value)));
    }

    /// A line of its own (a section's title), with no cell to align.
    pub fn line(&mut self, level: usize, text: &str) {
        self.indent(level);
        self.text.push_str(&escape(text));
        self.text.push('\n');
    }

    /// Cells, each escaped, tab-separated.
    pub fn cells(&mut self, level: usize, cells: &[&str]) {
        self.indent(level);
        let cells: Vec<_> = cells.iter().map(|c| escape(c)).collect();
        self.text.push_str(&cells.join("\t"));
        self.text.push('\n');
    }

    /// Text as it is: podrun's own words, tabs included.
    pub fn raw(&mut self, text: &str) {
        self.text.push_str(text);
    }

    /// `Title:<tab>first`, then `<tab>next` for each other item; `<none>` for none.
    pub fn multiline(&mut self, level: usize, title: &str, items: &[String]) {
        let Some((first, rest)) = items.split_first() else {
            return self.field(level, title, "<none>");
        };
        self.field(level, title, first);
        for item in rest {
            self.indent(level);
            self.text.push_str(&format!("\t{}\n", escape(item)));
        }
    }
}

/// The string at `v`; empty when it is none.
pub(super) fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

/// The items of the array at `v`; none when it is none.
pub(super) fn at(v: &Value) -> std::slice::Iter<'_, Value> {
    v.as_array().map_or([].iter(), |a| a.iter())
}

/// An RFC 3339 time as Go's `time.RFC1123Z` prints it, in UTC: `Mon, 02 Jan 2006 15:04:05 +0000`.
pub(super) fn rfc1123z(t: &str) -> String {
    let Some(secs) = crate::clock::parse_time(t).and_then(|t| t.duration_since(UNIX_EPOCH).ok()).map(|d| d.as_secs())
    else {
        return escape(t).into_owned();
    };
    let days = secs / 86_400;
    let (h, m, sec) = ((secs % 86_400) / 3600, (secs % 3600) / 60, secs % 60);
    let (year, month, day) = crate::clock::civil_from_days(days);
    const WEEKDAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let weekday = WEEKDAYS[usize::try_from(days % 7).unwrap_or(0)];
    let month = MONTHS[usize::try_from(month - 1).unwrap_or(0)];
    format!("{weekday}, {day:02} {month} {year} {h:02}:{m:02}:{sec:02} +0000")
}

#[cfg(test)]
mod tests {
    use super::rfc1123z;

    #[test]
    fn times_read_as_go_rfc1123z() {
        assert_eq!(rfc1123z("2026-12-06T08:15:55Z"), "Sun, 06 Dec 2026 08:15:55 +0000");
        assert_eq!(rfc1123z("2024-02-29T23:59:59Z"), "Thu, 29 Feb 2024 23:59:59 +0000");
        assert_eq!(rfc1123z("1970-01-01T00:00:00Z"), "Thu, 01 Jan 1970 00:00:00 +0000");
        assert_eq!(rfc1123z("not a time"), "not a time");
    }
}
