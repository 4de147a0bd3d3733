//! Where a manifest comes from: a file or standard input, read with a cap and decoded as
//! kubectl decodes it (or bytes read elsewhere, from a URL, decoded the same way).

use super::error::ManifestError;
use crate::manifest::yaml::input;

/// Where a manifest came from and what it says.
#[derive(Debug, Clone)]
pub struct Source {
    /// The path as the user gave it, or `<stdin>`.
    pub name: String,
    pub text: String,
    /// Said while reading it (bytes that are not UTF-8).
    pub warning: Option<String>,
}

impl Source {
    /// `-` reads standard input. At most [`input::MAX_INPUT_BYTES`] are read, so `/dev/zero`
    /// or an endless stream ends in an error.
    pub fn read(path: &str) -> Result<Source, ManifestError> {
        let name = if path == "-" { "<stdin>".to_owned() } else { path.to_owned() };
        let cap = input::MAX_INPUT_BYTES;
        let bytes = if path == "-" {
            input::read_capped(std::io::stdin().lock(), cap)
        } else {
            std::fs::File::open(path).map_err(input::ReadError::Io).and_then(|f| input::read_capped(f, cap))
        };
        let bytes = bytes.map_err(|e| match e {
            input::ReadError::Io(source) => ManifestError::Read { file: name.clone(), source },
            input::ReadError::TooLarge => ManifestError::TooLarge { file: name.clone(), cap_mib: cap >> 20 },
        })?;
        Ok(Source::decode(name, bytes))
    }

    /// The manifest `bytes` hold, read from `name`, decoded as a file's are.
    pub fn decode(name: String, bytes: Vec<u8>) -> Source {
        let (text, invalid) = input::decode(bytes);
        let warning = invalid.map(|(line, column)| {
            format!(
                "{name}:{line}:{column}: not UTF-8 text; read with U+FFFD in place of the bytes that are not, as kubectl reads it"
            )
        });
        Source { name, text, warning }
    }

    #[cfg(test)]
    pub fn from_text(name: &str, text: &str) -> Source {
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        Source { name: name.to_owned(), text: text.to_owned(), warning: None }
    }
}
