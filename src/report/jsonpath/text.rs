//! Values printed as kubectl's Go prints them: `%v` (`fmt.Sprint`) for a custom column and for
//! a scalar in a template's output, `encoding/json` for an object or a list in it, and the Go
//! type names client-go's errors use.

use std::fmt::Write;

use serde_json::{Number, Value};

/// `fmt.Sprint` of the value an unstructured object holds: strings as they are, `<nil>`,
/// `map[k:v ...]` (keys sorted, as Go prints maps), `[a b]`.
pub fn go_sprint(v: &Value) -> String {
    let mut out = String::new();
    sprint_into(v, &mut out);
    out
}

fn sprint_into(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("<nil>"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&go_number(n)),
        Value::String(s) => out.push_str(s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                sprint_into(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push_str("map[");
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(k);
                out.push(':');
                sprint_into(item, out);
            }
            out.push(']');
        }
    }
}

/// `json.Marshal`: compact, keys sorted, floats as Go writes them (`1`, not `1.0`), and `<`,
/// `>`, `&`, U+2028 and U+2029 escaped. Values nest as deep as their parser let them.
pub fn go_json(v: &Value) -> String {
    let mut out = String::new();
    json_into(v, &mut out);
    out
}

fn json_into(v: &Value, out: &mut String) {
    match v {
        Value::Null | Value::Bool(_) => out.push_str(&v.to_string()),
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() => out.push_str(&json_float(f)),
            _ => out.push_str(&n.to_string()),
        },
        Value::String(s) => json_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_into(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_string(k, out);
                out.push(':');
                json_into(item, out);
            }
            out.push('}');
        }
    }
}

fn json_string(s: &str, out: &mut String) {
    for c in Value::String(s.to_owned()).to_string().chars() {
        match c {
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
}

/// encoding/json's float: plain from 1e-6 to 1e21, else `1e+21`, `1e-7`.
fn json_float(f: f64) -> String {
    let a = f.abs();
    if a == 0.0 || (1e-6..1e21).contains(&a) {
        return f.to_string();
    }
    let sci = format!("{f:e}");
    match sci.split_once('e') {
        Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e}"),
        _ => sci,
    }
}

/// An integer as it is; a float as Go's `%v` prints a `float64`: the shortest digits, with
/// an exponent below 1e-4 and from 1e6 up (`1e+06`).
pub fn go_number(n: &Number) -> String {
    match n.as_f64() {
        Some(f) if n.is_f64() => go_float(f),
        _ => n.to_string(),
    }
}

fn go_float(f: f64) -> String {
    if f == 0.0 {
        return if f.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    let sci = format!("{f:e}");
    let Some((mantissa, exp)) = sci.split_once('e') else { return sci };
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..6).contains(&exp) {
        return f.to_string();
    }
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.abs())
}

/// The Go type client-go names in "... is not array or slice".
pub fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float64",
        Value::Number(_) => "int64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}
