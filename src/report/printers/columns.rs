//! `-o custom-columns`: a header line and a row per object, each cell a relaxed path's values
//! (`%v`, joined by commas; `<none>` for none), aligned as kubectl's tabwriter aligns them:
//! three spaces after the widest cell, columns at least six wide, the last one unpadded.

use serde_json::Value;

use crate::escape::escape;
use crate::report::jsonpath::{relaxed, text::go_sprint, JsonPath};

use super::PrinterError;

/// kubectl's tabwriter: minimum cell width and padding.
const MIN_WIDTH: usize = 6;
const PADDING: usize = 3;

#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub header: String,
    path: JsonPath,
}

fn column(header: &str, spec: &str) -> Result<Column, PrinterError> {
    let expr = relaxed(spec).map_err(PrinterError::Path)?;
    let path = JsonPath::parse(&expr).map_err(PrinterError::Path)?;
    Ok(Column { header: header.to_owned(), path })
}

pub(super) fn from_spec(spec: &str) -> Result<Vec<Column>, PrinterError> {
    if spec.is_empty() {
        return Err(PrinterError::NoColumns);
    }
    spec.split(',')
        .map(|part| {
            let (header, path) = part.split_once(':').ok_or_else(|| PrinterError::ColumnSpec(part.to_owned()))?;
            column(header, path)
        })
        .collect()
}

pub(super) fn from_file(text: &str) -> Result<Vec<Column>, PrinterError> {
    let mut lines = text.lines();
    let headers: Vec<&str> = lines.next().ok_or(PrinterError::ColumnsFile("header"))?.split_whitespace().collect();
    let specs: Vec<&str> = lines.next().ok_or(PrinterError::ColumnsFile("spec"))?.split_whitespace().collect();
    if headers.len() != specs.len() {
        return Err(PrinterError::ColumnCount(headers.len(), specs.len()));
    }
    headers.iter().zip(&specs).map(|(h, s)| column(h, s)).collect()
}

pub(super) fn print(cols: &[Column], object: &Value, headers: bool) -> Result<String, PrinterError> {
    let mut rows: Vec<Vec<String>> = Vec::new();
    if headers {
        rows.push(cols.iter().map(|c| escape(&c.header).into_owned()).collect());
    }
    for item in super::items(object) {
        let mut row = Vec::with_capacity(cols.len());
        for c in cols {
            let found = c.path.find(item, true).map_err(PrinterError::Column)?;
            let values: Vec<String> = found.iter().flatten().map(|v| escape(&go_sprint(v)).into_owned()).collect();
            let empty = found.first().is_none_or(Vec::is_empty);
            row.push(if empty { "<none>".to_owned() } else { values.join(",") });
        }
        rows.push(row);
    }
    Ok(aligned(&rows))
}

/// Rows as Go's tabwriter lays out tab-separated cells with kubectl's settings.
pub(super) fn aligned(rows: &[Vec<String>]) -> String {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..n)
        .map(|i| {
            let widest = rows.iter().filter_map(|r| r.get(i)).map(|c| c.chars().count()).max().unwrap_or(0);
            (widest + PADDING).max(MIN_WIDTH)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            if i + 1 == row.len() {
                out.push_str(cell);
            } else {
                out.push_str(&format!("{cell:<w$}", w = widths[i]));
            }
        }
        out.push('\n');
    }
    out
}
