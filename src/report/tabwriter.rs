//! Go's `text/tabwriter`, as kubectl uses it for `describe` and its tables: cells end at a tab,
//! and a column is as wide as its widest cell (plus padding) over each run of consecutive lines
//! that have a cell in it. A line without that cell ends the run, so kubectl's sections align
//! apart from each other in the way users know.

/// `text` aligned: each tab-terminated cell padded to its column's width (at least `min`,
/// counting `padding` after the widest cell) with spaces; a line's last cell is left as is.
pub fn align(text: &str, min: usize, padding: usize) -> String {
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    let mut widths = Vec::new();
    format(&lines, 0, lines.len(), &mut widths, min, padding, &mut out);
    out
}

/// Go's `Writer.format`: the lines `from..to` given the widths of the columns to the left.
fn format(
    lines: &[Vec<&str>],
    mut from: usize,
    to: usize,
    widths: &mut Vec<usize>,
    min: usize,
    padding: usize,
    out: &mut String,
) {
    let column = widths.len();
    let mut this = from;
    while this < to {
        if column + 1 >= lines[this].len() {
            this += 1;
            continue;
        }
        write_lines(&lines[from..this], widths, out);
        from = this;
        let mut width = min;
        while this < to && column + 1 < lines[this].len() {
            width = width.max(lines[this][column].chars().count() + padding);
            this += 1;
        }
        widths.push(width);
        format(lines, from, this, widths, min, padding, out);
        widths.pop();
        from = this;
    }
    write_lines(&lines[from..to], widths, out);
}

fn write_lines(lines: &[Vec<&str>], widths: &[usize], out: &mut String) {
    for line in lines {
        for (j, cell) in line.iter().enumerate() {
            out.push_str(cell);
            if j + 1 < line.len() {
                let width = widths.get(j).copied().unwrap_or(0);
                out.push_str(&" ".repeat(width.saturating_sub(cell.chars().count())));
            }
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::align;

    #[test]
    fn runs_of_lines_align_apart() {
        let text = "Name:\tweb\nService Account:\tdefault\nIPs:\n  IP:\t10.0.0.2\n\nA\tb\tc\nlonger\tb\n";
        let want =
            "Name:             web\nService Account:  default\nIPs:\n  IP:  10.0.0.2\n\nA       b  c\nlonger  b\n";
        assert_eq!(align(text, 0, 2), want);
    }

    #[test]
    fn a_minimum_width_holds() {
        assert_eq!(align("A\tB\nccc\td\n", 10, 3), "A         B\nccc       d\n");
    }
}
