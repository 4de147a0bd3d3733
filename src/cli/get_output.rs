//! `get -o FORMAT`: kubectl's output forms, read from the flag's value (`wide`, `json`, `yaml`,
//! `name`, `jsonpath=TEMPLATE`, `jsonpath-file=FILE`, `custom-columns=SPEC`,
//! `custom-columns-file=FILE`). Templates and specs are checked when `get` runs, as kubectl
//! checks them, with its words.

use std::path::PathBuf;

/// How `get` prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GetOutputArg {
    Wide,
    Json,
    Yaml,
    Name,
    JsonPath(String),
    JsonPathFile(PathBuf),
    CustomColumns(String),
    CustomColumnsFile(PathBuf),
}

/// The forms, as kubectl lists them in its refusal.
const ALLOWED: &str = "custom-columns,custom-columns-file,json,jsonpath,jsonpath-file,name,wide,yaml";

/// # Errors
/// A form kubectl's `get` would not match to a printer (podrun has no go-template).
pub fn parse_get_output(s: &str) -> Result<GetOutputArg, String> {
    let (form, arg) = match s.split_once('=') {
        Some((form, arg)) => (form, Some(arg)),
        None => (s, None),
    };
    Ok(match (form, arg) {
        ("wide", None) => GetOutputArg::Wide,
        ("json", None) => GetOutputArg::Json,
        ("yaml", None) => GetOutputArg::Yaml,
        ("name", None) => GetOutputArg::Name,
        ("jsonpath", arg) => GetOutputArg::JsonPath(arg.unwrap_or_default().to_owned()),
        ("jsonpath-file", Some(f)) if !f.is_empty() => GetOutputArg::JsonPathFile(f.into()),
        ("custom-columns", arg) => GetOutputArg::CustomColumns(arg.unwrap_or_default().to_owned()),
        ("custom-columns-file", Some(f)) if !f.is_empty() => GetOutputArg::CustomColumnsFile(f.into()),
        ("jsonpath-file" | "custom-columns-file", _) => return Err(format!("{form} needs a file: -o {form}=FILE")),
        _ => {
            return Err(format!(
                "unable to match a printer suitable for the output format {s:?}, allowed formats are: {ALLOWED}"
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubectls_forms_are_read() {
        assert_eq!(parse_get_output("wide"), Ok(GetOutputArg::Wide));
        assert_eq!(parse_get_output("name"), Ok(GetOutputArg::Name));
        assert_eq!(parse_get_output("jsonpath={.a=b}"), Ok(GetOutputArg::JsonPath("{.a=b}".into())));
        assert_eq!(parse_get_output("jsonpath"), Ok(GetOutputArg::JsonPath(String::new())));
        assert_eq!(parse_get_output("custom-columns=N:.a"), Ok(GetOutputArg::CustomColumns("N:.a".into())));
        assert_eq!(parse_get_output("jsonpath-file=/t"), Ok(GetOutputArg::JsonPathFile("/t".into())));
        assert!(parse_get_output("go-template={{.a}}").is_err_and(|e| e.contains("allowed formats are")));
        assert!(parse_get_output("json=x").is_err());
        assert!(parse_get_output("custom-columns-file").is_err());
    }
}
