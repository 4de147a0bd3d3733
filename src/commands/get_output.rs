//! `get`'s kubectl printers (`-o name|jsonpath|jsonpath-file|custom-columns|custom-columns-file`)
//! made from the flag, their files read with a bound, and `--sort-by` applied to the objects
//! and to `get`'s own rows alike. A template or spec that kubectl refuses is refused before
//! the engine is asked anything.

use std::io::Read;
use std::path::Path;

use serde_json::Value;

use crate::cli::GetOutputArg;
use crate::exit::UsageError;
use crate::report::jsonpath::MAX_TEMPLATE;
use crate::report::output;
use crate::report::printers::{sort, Printer};

/// The printer `output` names, when it is one of these forms.
///
/// # Errors
/// A file that cannot be read or is too long, a template or spec kubectl would refuse.
pub fn printer(output: Option<&GetOutputArg>) -> anyhow::Result<Option<Printer>> {
    let made = match output {
        Some(GetOutputArg::Name) => Ok(Printer::Name),
        Some(GetOutputArg::JsonPath(t)) => Printer::json_path(t),
        Some(GetOutputArg::JsonPathFile(f)) => Printer::json_path(&read(f)?),
        Some(GetOutputArg::CustomColumns(spec)) => Printer::custom_columns(spec),
        Some(GetOutputArg::CustomColumnsFile(f)) => Printer::custom_columns_file(&read(f)?),
        Some(GetOutputArg::Wide | GetOutputArg::Json | GetOutputArg::Yaml) | None => return Ok(None),
    };
    Ok(Some(made.map_err(|e| UsageError::Said(e.to_string()))?))
}

/// Prints `object` with `printer` on stdout.
///
/// # Errors
/// The template does not fit the object; stdout is closed.
pub fn print(printer: Option<&Printer>, object: &Value, headers: bool) -> anyhow::Result<()> {
    if let Some(p) = printer {
        output::print(&p.print(object, headers)?)?;
    }
    Ok(())
}

/// `rows` (one per item of `object`, a List) and the List's items in `--sort-by`'s order.
///
/// # Errors
/// The path is not one, no item has it, or its values do not compare.
pub fn sorted<T>(rows: Vec<T>, object: &mut Value, sort_by: Option<&str>) -> anyhow::Result<Vec<T>> {
    let Some(field) = sort_by else { return Ok(rows) };
    let order = sort::sort_items(object, field).map_err(|e| UsageError::Said(e.to_string()))?;
    if order.len() != rows.len() {
        return Ok(rows);
    }
    let mut old: Vec<Option<T>> = rows.into_iter().map(Some).collect();
    Ok(order.iter().filter_map(|i| old.get_mut(*i).and_then(Option::take)).collect())
}

/// A template or columns file, at most `MAX_TEMPLATE` bytes.
fn read(path: &Path) -> anyhow::Result<String> {
    let unreadable = |source| UsageError::Unreadable { path: path.display().to_string(), source };
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_TEMPLATE as u64 + 1).read_to_string(&mut text))
        .map_err(unreadable)?;
    if text.len() > MAX_TEMPLATE {
        return Err(UsageError::Said(format!(
            "{}: longer than {MAX_TEMPLATE} bytes",
            crate::escape::Escaped(path.display())
        ))
        .into());
    }
    Ok(text)
}
