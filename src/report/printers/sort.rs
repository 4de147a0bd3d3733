//! `--sort-by=PATH`: a List's items ordered by the first value the relaxed path finds in
//! each, as kubectl's SortingPrinter orders them: integers and floats by value, strings as
//! quantities or naturally, items without the field first; a path no item has is an error,
//! and so are values of kinds that do not compare (maps, lists, a number with a string).

use std::cmp::Ordering;

use serde_json::Value;

use crate::report::jsonpath::{relaxed, JsonPath};

use super::natural::{natural, quantity};
use super::{is_list, PrinterError};

/// What an item sorts by.
enum Key<'a> {
    Missing,
    Null,
    Int(i128),
    Float(f64),
    Str(&'a str),
}

fn key(v: &Value) -> Result<Key<'_>, String> {
    Ok(match v {
        Value::Null => Key::Null,
        Value::Number(n) if n.is_f64() => Key::Float(n.as_f64().unwrap_or(f64::NAN)),
        Value::Number(n) => Key::Int(n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from)).unwrap_or(0)),
        Value::String(s) => Key::Str(s),
        other => return Err(format!("unsortable type: {}", crate::report::jsonpath::text::go_type(other))),
    })
}

fn compare(a: &Key<'_>, b: &Key<'_>) -> Option<Ordering> {
    Some(match (a, b) {
        (Key::Missing, Key::Missing) | (Key::Null, Key::Null) => Ordering::Equal,
        (Key::Missing | Key::Null, _) => Ordering::Less,
        (_, Key::Missing | Key::Null) => Ordering::Greater,
        (Key::Int(x), Key::Int(y)) => x.cmp(y),
        (Key::Float(x), Key::Float(y)) => x.partial_cmp(y).unwrap_or(Ordering::Equal),
        (Key::Str(x), Key::Str(y)) => match (quantity(x), quantity(y)) {
            (Some(qx), Some(qy)) => qx.partial_cmp(&qy).unwrap_or(Ordering::Equal),
            _ => natural(x, y),
        },
        _ => return None,
    })
}

/// Sorts `object`'s items (a List's; anything else stays as it is) by `field`, and returns the
/// items' former indexes in their new order, for the caller's own rows.
///
/// # Errors
/// The path is not one, no item has it, or its values do not compare.
pub fn sort_items(object: &mut Value, field: &str) -> Result<Vec<usize>, PrinterError> {
    let expr = relaxed(field).map_err(PrinterError::Path)?;
    let path = JsonPath::parse(&expr).map_err(PrinterError::Path)?;
    let Some(Value::Array(items)) = object.get("items").filter(|_| is_list(object)) else {
        return Ok(vec![0]);
    };
    if items.is_empty() {
        return Ok(Vec::new());
    }
    let unsortable = |why: String| PrinterError::Unsortable { field: expr.clone(), why };
    let mut found = Vec::with_capacity(items.len());
    for item in items {
        let values = path.find(item, true).map_err(PrinterError::Column)?;
        found.push(values.into_iter().next().and_then(|v| v.into_iter().next()));
    }
    if found.iter().all(Option::is_none) {
        return Err(PrinterError::SortField(expr));
    }
    let keys: Vec<Key<'_>> = found
        .iter()
        .map(|v| v.as_deref().map_or(Ok(Key::Missing), key))
        .collect::<Result<_, _>>()
        .map_err(unsortable)?;
    let first = keys.iter().find(|k| !matches!(k, Key::Missing | Key::Null));
    if first.is_some_and(|f| keys.iter().any(|k| compare(f, k).is_none())) {
        return Err(unsortable("values of different types".to_owned()));
    }
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|a, b| compare(&keys[*a], &keys[*b]).unwrap_or(Ordering::Equal));
    let Some(Value::Array(items)) = object.get_mut("items") else { return Ok(order) };
    let mut old: Vec<Option<Value>> = items.drain(..).map(Some).collect();
    items.extend(order.iter().filter_map(|i| old[*i].take()));
    Ok(order)
}
