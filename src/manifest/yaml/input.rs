//! Reading one input (a manifest file, standard input, a `--config` file) into text, as kubectl
//! reads it, and never more than [`MAX_INPUT_BYTES`] of it.
//!
//! kubectl decodes its input with a byte order mark deciding the encoding: a UTF-8 BOM is
//! dropped, a UTF-16 (little or big endian) BOM makes the rest UTF-16; bytes that are not
//! UTF-8 are read as U+FFFD. podrun does the same, and warns where such bytes were.

use std::io::Read;

/// The most podrun reads from one input: 64 MiB. A pod manifest is a few kilobytes; 100,000
/// small pods in one file are about 13 MiB. Reading stops here, so `/dev/zero` or an endless
/// standard input ends in an error instead of exhausting memory.
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

#[derive(Debug)]
pub enum ReadError {
    Io(std::io::Error),
    TooLarge,
}

/// Reads all of `input`, up to `cap` bytes: one byte more is an error.
pub fn read_capped(input: impl Read, cap: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    input.take(cap.saturating_add(1)).read_to_end(&mut bytes).map_err(ReadError::Io)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge);
    }
    Ok(bytes)
}

/// The text of `bytes`, and where (1-based line and column) the first bytes that are not
/// UTF-8 were, if any.
pub fn decode(bytes: Vec<u8>) -> (String, Option<(usize, usize)>) {
    match bytes.as_slice() {
        [0xEF, 0xBB, 0xBF, rest @ ..] => utf8(rest.to_vec()),
        [0xFF, 0xFE, rest @ ..] => (utf16(rest, u16::from_le_bytes), None),
        [0xFE, 0xFF, rest @ ..] => (utf16(rest, u16::from_be_bytes), None),
        _ => utf8(bytes),
    }
}

fn utf8(bytes: Vec<u8>) -> (String, Option<(usize, usize)>) {
    match String::from_utf8(bytes) {
        Ok(text) => (text, None),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            // The valid prefix is text; its lines and characters give the place.
            let before = String::from_utf8_lossy(&bytes[..at]);
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            (String::from_utf8_lossy(&bytes).into_owned(), Some((line, column)))
        }
    }
}

fn utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> String {
    let units = bytes.chunks(2).map(|c| match c {
        [a, b] => unit([*a, *b]),
        _ => 0xFFFD, // an odd byte at the end
    });
    char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_order_marks_choose_the_encoding() {
        assert_eq!(decode(b"\xEF\xBB\xBFa: 1\n".to_vec()), ("a: 1\n".to_owned(), None));
        let le: Vec<u8> = [0xFF, 0xFE].into_iter().chain("a: é\n".encode_utf16().flat_map(u16::to_le_bytes)).collect();
        assert_eq!(decode(le).0, "a: é\n");
        let be: Vec<u8> = [0xFE, 0xFF].into_iter().chain("a: 1\n".encode_utf16().flat_map(u16::to_be_bytes)).collect();
        assert_eq!(decode(be).0, "a: 1\n");
        assert_eq!(decode(vec![0xFF, 0xFE, b'a']).0, "\u{FFFD}");
    }

    #[test]
    fn bytes_that_are_not_utf8_are_replaced_and_placed() {
        assert_eq!(decode(b"a: 1\nb: x\xFFy\n".to_vec()), ("a: 1\nb: x\u{FFFD}y\n".to_owned(), Some((2, 5))));
    }

    #[test]
    fn reading_stops_past_the_cap() {
        assert_eq!(read_capped(&b"12345"[..], 5).unwrap(), b"12345");
        assert!(matches!(read_capped(&b"123456"[..], 5), Err(ReadError::TooLarge)));
        assert!(matches!(read_capped(std::io::repeat(0), 1024), Err(ReadError::TooLarge)), "an endless input ends");
    }
}
