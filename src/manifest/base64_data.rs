//! Base64 as the API server reads it, for Secret data: shared by the strict decoder (which
//! refuses bad data while reading) and the config store (which decodes it for use).

use base64::Engine;

/// Decodes base64 as the API server does (Go's `base64.StdEncoding`, which JSON's `[]byte`
/// uses): padding required, line breaks (`\r`, `\n`) ignored, any other space an error, and
/// unused bits of the last character allowed. The error gives the offset of the first byte
/// that is wrong, as Go's "illegal base64 data at input byte N" does.
pub fn decode_base64(text: &str) -> Result<Vec<u8>, usize> {
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    const GO_STD: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new()
            .with_decode_padding_mode(DecodePaddingMode::RequireCanonical)
            .with_decode_allow_trailing_bits(true),
    );
    // Offsets in the compacted text, mapped back to the original when reporting.
    let kept: Vec<usize> =
        text.bytes().enumerate().filter(|(_, b)| !matches!(b, b'\r' | b'\n')).map(|(i, _)| i).collect();
    let compact: Vec<u8> = kept.iter().map(|&i| text.as_bytes()[i]).collect();
    let alphabet = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=');
    if let Some(at) = compact.iter().position(|b| !alphabet(b)) {
        return Err(kept[at]);
    }
    GO_STD.decode(&compact).map_err(|e| {
        let at = match e {
            base64::DecodeError::InvalidByte(at, _) | base64::DecodeError::InvalidLastSymbol(at, _) => at,
            // Wrong length or padding: Go reports where the last group begins.
            base64::DecodeError::InvalidLength(len) => len - len % 4,
            base64::DecodeError::InvalidPadding => {
                compact.iter().position(|b| *b == b'=').unwrap_or(compact.len() - compact.len() % 4)
            }
        };
        kept.get(at).copied().unwrap_or(text.len())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_read_as_the_api_server_reads_it() {
        assert_eq!(decode_base64("aGk=").unwrap(), b"hi");
        assert_eq!(decode_base64("aG\nk=\r\n").unwrap(), b"hi", "line breaks are ignored");
        assert_eq!(decode_base64("aGl=").unwrap(), b"hi", "unused bits are allowed");
        assert_eq!(decode_base64("").unwrap(), b"");
        assert_eq!(decode_base64("aGk"), Err(0), "padding is required");
        assert_eq!(decode_base64("aG k="), Err(2), "spaces are not line breaks");
        assert_eq!(decode_base64("aGk=\naGk="), Err(3), "padding ends the data");
        assert_eq!(decode_base64("aGk=="), Err(3));
        assert_eq!(decode_base64("hunter2!!"), Err(7));
    }
}
