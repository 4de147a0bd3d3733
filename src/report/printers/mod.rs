//! kubectl's printers for `get -o name|jsonpath=...|custom-columns=...` and its `--sort-by`,
//! over the objects `get` prints as JSON (one Pod, or a List of them): in kubectl's shapes
//! and words. A List's items are printed one by one; a template runs on the List itself.

mod columns;
mod name;
mod natural;
pub mod sort;

#[cfg(test)]
mod tests;

use serde_json::Value;

use super::jsonpath::{ExecError, JsonPath, ParseError};

pub use columns::Column;

/// How `get` prints its objects, other than its table, JSON and YAML.
#[derive(Debug, Clone, PartialEq)]
pub enum Printer {
    /// `pod/NAME`, a line each.
    Name,
    /// A template, run with missing keys printing nothing, as kubectl's default
    /// `--allow-missing-template-keys=true`.
    JsonPath {
        template: String,
        path: JsonPath,
    },
    CustomColumns(Vec<Column>),
}

/// A printer refused or failed, in kubectl's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PrinterError {
    #[error("template format specified but no template given")]
    NoTemplate,
    #[error("error parsing jsonpath {template}, {why}")]
    JsonPath { template: String, why: ParseError },
    #[error("error executing jsonpath {template:?}: Error executing template: {why}")]
    Executing { template: String, why: ExecError },
    #[error("custom-columns format specified but no custom columns given")]
    NoColumns,
    #[error("unexpected custom-columns spec: {0}, expected <header>:<json-path-expr>")]
    ColumnSpec(String),
    #[error(
        "invalid template, missing {0} line. Expected format is one line of space separated headers, one line of space separated column specs."
    )]
    ColumnsFile(&'static str),
    #[error("number of headers ({0}) and field specifications ({1}) don't match")]
    ColumnCount(usize, usize),
    #[error("{0}")]
    Path(ParseError),
    #[error("{0}")]
    Column(ExecError),
    #[error("couldn't find any field with path {0:?} in the list of objects")]
    SortField(String),
    #[error("Field {field} is an unsortable type: {why}")]
    Unsortable { field: String, why: String },
}

impl Printer {
    /// `-o jsonpath=TEMPLATE` (or a `jsonpath-file`'s text).
    ///
    /// # Errors
    /// No template, or one kubectl would refuse.
    pub fn json_path(template: &str) -> Result<Printer, PrinterError> {
        if template.is_empty() {
            return Err(PrinterError::NoTemplate);
        }
        let path =
            JsonPath::parse(template).map_err(|why| PrinterError::JsonPath { template: template.to_owned(), why })?;
        Ok(Printer::JsonPath { template: template.to_owned(), path })
    }

    /// `-o custom-columns=HEADER:PATH,...`.
    ///
    /// # Errors
    /// As kubectl: an empty spec, a column without `:`, a path that is not one.
    pub fn custom_columns(spec: &str) -> Result<Printer, PrinterError> {
        columns::from_spec(spec).map(Printer::CustomColumns)
    }

    /// `-o custom-columns-file=FILE`'s text: a line of headers, a line of paths.
    ///
    /// # Errors
    /// As kubectl: a line missing, counts that differ, a path that is not one.
    pub fn custom_columns_file(text: &str) -> Result<Printer, PrinterError> {
        columns::from_file(text).map(Printer::CustomColumns)
    }

    /// What `get` prints for `object` (a Pod, or a List); `headers` false leaves out the
    /// custom columns' header line.
    ///
    /// # Errors
    /// The template or a column does not fit the object.
    pub fn print(&self, object: &Value, headers: bool) -> Result<String, PrinterError> {
        match self {
            Printer::Name => Ok(name::print(object)),
            Printer::JsonPath { template, path } => {
                path.print(object, true).map_err(|why| PrinterError::Executing { template: template.clone(), why })
            }
            Printer::CustomColumns(cols) => columns::print(cols, object, headers),
        }
    }
}

/// The objects a List holds, or the one object.
fn items(object: &Value) -> Vec<&Value> {
    match object.get("items") {
        Some(Value::Array(items)) if is_list(object) => items.iter().collect(),
        _ => vec![object],
    }
}

fn is_list(object: &Value) -> bool {
    object.get("kind").and_then(Value::as_str).is_some_and(|k| k.ends_with("List"))
}
