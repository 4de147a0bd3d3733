//! A filter's comparisons (`==`, `!=`, `<`, `<=`, `>`, `>=`), as client-go's fork of Go's
//! template functions makes them: values of one basic kind (bool, integer, float, string)
//! compare, an integer with an unsigned one too; other pairs are errors, not false.

use serde_json::Value;

use super::ExecError;

#[derive(Clone, Copy)]
enum Basic<'a> {
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str(&'a str),
}

fn basic(v: &Value) -> Result<Basic<'_>, ExecError> {
    Ok(match v {
        Value::Bool(b) => Basic::Bool(*b),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Basic::Int(i)
            } else if let Some(u) = n.as_u64() {
                Basic::Uint(u)
            } else {
                Basic::Float(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(s) => Basic::Str(s),
        Value::Null | Value::Array(_) | Value::Object(_) => return Err(ExecError::ComparisonType),
    })
}

/// Integers of either sign, compared without overflow.
fn int_uint(i: i64, u: u64) -> std::cmp::Ordering {
    u64::try_from(i).map_or(std::cmp::Ordering::Less, |i| i.cmp(&u))
}

fn equal(a: &Value, b: &Value) -> Result<bool, ExecError> {
    Ok(match (basic(a)?, basic(b)?) {
        (Basic::Bool(x), Basic::Bool(y)) => x == y,
        (Basic::Int(x), Basic::Int(y)) => x == y,
        (Basic::Uint(x), Basic::Uint(y)) => x == y,
        (Basic::Int(i), Basic::Uint(u)) | (Basic::Uint(u), Basic::Int(i)) => int_uint(i, u).is_eq(),
        #[allow(clippy::float_cmp)] // Go's `==` on float64, exactly.
        (Basic::Float(x), Basic::Float(y)) => x == y,
        (Basic::Str(x), Basic::Str(y)) => x == y,
        _ => return Err(ExecError::Comparison),
    })
}

fn less(a: &Value, b: &Value) -> Result<bool, ExecError> {
    Ok(match (basic(a)?, basic(b)?) {
        (Basic::Bool(_), _) | (_, Basic::Bool(_)) => return Err(ExecError::ComparisonType),
        (Basic::Int(x), Basic::Int(y)) => x < y,
        (Basic::Uint(x), Basic::Uint(y)) => x < y,
        (Basic::Int(i), Basic::Uint(u)) => int_uint(i, u).is_lt(),
        (Basic::Uint(u), Basic::Int(i)) => int_uint(i, u).is_gt(),
        (Basic::Float(x), Basic::Float(y)) => x < y,
        (Basic::Str(x), Basic::Str(y)) => x < y,
        _ => return Err(ExecError::Comparison),
    })
}

/// Whether `left OP right` holds; an operator client-go does not know is an error.
pub(super) fn holds(op: &str, left: &Value, right: &Value) -> Result<bool, ExecError> {
    match op {
        "==" => equal(left, right),
        "!=" => equal(left, right).map(|e| !e),
        "<" => less(left, right),
        "<=" => Ok(less(left, right)? || equal(left, right)?),
        ">" => Ok(!(less(left, right)? || equal(left, right)?)),
        ">=" => less(left, right).map(|l| !l),
        _ => Err(ExecError::Operator(op.to_owned())),
    }
}
