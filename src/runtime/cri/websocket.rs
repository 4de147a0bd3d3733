//! The client side of a WebSocket (RFC 6455), as much of it as the CRI streaming server needs:
//! the opening handshake over HTTP/1.1, frames (a client's always masked), messages put back
//! together from their fragments, and the control frames (ping, pong, close). No extensions
//! (the server is offered none), no TLS (the streaming server's URL is plain `http` on the
//! runtime's host).

use base64::Engine as _;

/// What RFC 6455 appends to the client's key before hashing it into `Sec-WebSocket-Accept`.
const ACCEPT_GUID: &str = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

pub const OP_CONTINUATION: u8 = 0x0;
pub const OP_TEXT: u8 = 0x1;
pub const OP_BINARY: u8 = 0x2;
pub const OP_CLOSE: u8 = 0x8;
pub const OP_PING: u8 = 0x9;
pub const OP_PONG: u8 = 0xa;

/// The 7-bit lengths that say a 16-bit or a 64-bit length follows.
const LEN_16: u8 = 126;
const LEN_64: u8 = 127;
/// The bit of the second byte that says the payload is masked.
const MASKED: u8 = 0x80;

/// The close code of a normal end.
pub const CLOSE_NORMAL: u16 = 1000;

/// The request that opens a WebSocket at `path` on `host` (`127.0.0.1:PORT`), with the client's
/// `key` (16 random bytes, in base64) and the subprotocols it offers.
pub fn handshake_request(host: &str, path: &str, key: &str, protocols: &[&str]) -> String {
    format!(
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: {}\r\n\r\n",
        protocols.join(", ")
    )
}

/// The `Sec-WebSocket-Accept` a server must answer to the client's `key`.
pub fn accept_key(key: &str) -> String {
    let digest =
        ring::digest::digest(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY, format!("{key}{ACCEPT_GUID}").as_bytes());
    base64::engine::general_purpose::STANDARD.encode(digest.as_ref())
}

/// A whole frame as a client sends it: final (never fragmented), masked with `mask`.
pub fn encode(opcode: u8, payload: &[u8], mask: [u8; 4]) -> Vec<u8> {
    let mut frame = Vec::with_capacity(payload.len() + 14);
    frame.push(0x80 | opcode);
    let len = payload.len();
    if len < 126 {
        // Below 126: fits in the 7 bits.
        frame.push(MASKED | u8::try_from(len).unwrap_or(125));
    } else if let Ok(len) = u16::try_from(len) {
        frame.push(MASKED | LEN_16);
        frame.extend_from_slice(&len.to_be_bytes());
    } else {
        frame.push(MASKED | LEN_64);
        frame.extend_from_slice(&(len as u64).to_be_bytes());
    }
    frame.extend_from_slice(&mask);
    frame.extend(payload.iter().zip(mask.iter().cycle()).map(|(b, m)| b ^ m));
    frame
}

/// A message from the server, put together from its frames.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    Binary(Vec<u8>),
    Text(Vec<u8>),
    Ping(Vec<u8>),
    Pong(Vec<u8>),
    /// The server's close, with its code when it gave one.
    Close(Option<u16>),
}

/// How the server's frames break the protocol.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    #[error("a WebSocket message of {0} bytes, over the limit of {1}")]
    TooLarge(u64, usize),
    #[error("a WebSocket frame with reserved bits set (no extension was agreed)")]
    Reserved,
    #[error("a WebSocket frame of unknown opcode {0:#x}")]
    Opcode(u8),
    #[error("a fragmented or long WebSocket control frame")]
    BadControl,
    #[error("a WebSocket continuation frame with no message to continue")]
    Continuation,
    #[error("a new WebSocket message before the last one ended")]
    Interleaved,
}

/// Cuts the bytes read from the server into messages, holding what is not whole yet.
#[derive(Debug)]
pub struct Decoder {
    buf: Vec<u8>,
    /// The opcode and the bytes so far of a fragmented message.
    partial: Option<(u8, Vec<u8>)>,
    /// The largest message taken (a frame or the sum of a message's fragments).
    max: usize,
}

impl Decoder {
    pub fn new(max: usize) -> Decoder {
        Decoder { buf: Vec::new(), partial: None, max }
    }

    /// Bytes read from the connection.
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next whole message, if the bytes pushed so far hold one.
    ///
    /// # Errors
    /// When the frames break RFC 6455 or a message is over the limit: the connection is then
    /// no longer usable.
    pub fn next_message(&mut self) -> Result<Option<Message>, FrameError> {
        loop {
            let Some((fin, opcode, payload)) = self.frame()? else { return Ok(None) };
            match opcode {
                OP_CLOSE => {
                    let code = payload.get(..2).map(|c| u16::from_be_bytes([c[0], c[1]]));
                    return Ok(Some(Message::Close(code)));
                }
                OP_PING => return Ok(Some(Message::Ping(payload))),
                OP_PONG => return Ok(Some(Message::Pong(payload))),
                OP_CONTINUATION => {
                    let Some((_, so_far)) = self.partial.as_mut() else { return Err(FrameError::Continuation) };
                    if so_far.len() + payload.len() > self.max {
                        return Err(FrameError::TooLarge((so_far.len() + payload.len()) as u64, self.max));
                    }
                    so_far.extend_from_slice(&payload);
                    if fin {
                        let (op, whole) = self.partial.take().unwrap_or_default();
                        return Ok(Some(data(op, whole)));
                    }
                }
                _ if self.partial.is_some() => return Err(FrameError::Interleaved),
                _ if fin => return Ok(Some(data(opcode, payload))),
                _ => self.partial = Some((opcode, payload)),
            }
        }
    }

    /// The next whole frame: whether it is final, its opcode and its (unmasked) payload.
    fn frame(&mut self) -> Result<Option<(bool, u8, Vec<u8>)>, FrameError> {
        let b = &self.buf;
        if b.len() < 2 {
            return Ok(None);
        }
        let (fin, opcode) = (b[0] & 0x80 != 0, b[0] & 0x0f);
        if b[0] & 0x70 != 0 {
            return Err(FrameError::Reserved);
        }
        let control = match opcode {
            OP_CONTINUATION | OP_TEXT | OP_BINARY => false,
            OP_CLOSE | OP_PING | OP_PONG => true,
            op => return Err(FrameError::Opcode(op)),
        };
        let masked = b[1] & 0x80 != 0;
        let (len, mut at) = match b[1] & 0x7f {
            126 if b.len() < 4 => return Ok(None),
            126 => (u64::from(u16::from_be_bytes([b[2], b[3]])), 4),
            127 if b.len() < 10 => return Ok(None),
            127 => (u64::from_be_bytes([b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9]]), 10),
            n => (u64::from(n), 2),
        };
        if control && (!fin || len > 125) {
            return Err(FrameError::BadControl);
        }
        let len = match usize::try_from(len) {
            Ok(n) if n <= self.max => n,
            _ => return Err(FrameError::TooLarge(len, self.max)),
        };
        // A server must not mask its frames; one that does is unmasked all the same.
        let mask = if masked {
            let Some(m) = b.get(at..at + 4) else { return Ok(None) };
            at += 4;
            Some([m[0], m[1], m[2], m[3]])
        } else {
            None
        };
        if b.len() < at + len {
            return Ok(None);
        }
        let mut payload = b[at..at + len].to_vec();
        if let Some(mask) = mask {
            payload.iter_mut().zip(mask.iter().cycle()).for_each(|(p, m)| *p ^= m);
        }
        self.buf.drain(..at + len);
        Ok(Some((fin, opcode, payload)))
    }
}

fn data(opcode: u8, payload: Vec<u8>) -> Message {
    if opcode == OP_TEXT {
        Message::Text(payload)
    } else {
        Message::Binary(payload)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame as a server sends it: unmasked, `fin` or not.
    fn server_frame(fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
        let mut f = encode(opcode, payload, [0; 4]);
        // Drop the mask bit and the (zero) key.
        f[1] &= 0x7f;
        let key_at = match f[1] {
            126 => 4,
            127 => 10,
            _ => 2,
        };
        f.drain(key_at..key_at + 4);
        if !fin {
            f[0] &= 0x7f;
        }
        f
    }

    #[test]
    fn the_accept_key_is_the_rfcs_example() {
        assert_eq!(accept_key("dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    }

    #[test]
    fn client_frames_are_masked() {
        let f = encode(OP_BINARY, b"\x00hi", [1, 2, 3, 4]);
        assert_eq!(f, [0x82, 0x83, 1, 2, 3, 4, 0x01, b'h' ^ 2, b'i' ^ 3]);
        // Unmasking gives the payload back.
        let mut d = Decoder::new(1 << 20);
        d.push(&f);
        assert_eq!(d.next_message().unwrap(), Some(Message::Binary(b"\x00hi".to_vec())));
    }

    #[test]
    fn lengths_take_one_two_or_eight_bytes() {
        for (len, header) in [(0, 2), (125, 2), (126, 4), (65535, 4), (65536, 10), (70000, 10)] {
            let payload: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let f = encode(OP_BINARY, &payload, [9, 8, 7, 6]);
            assert_eq!(f.len(), header + 4 + len, "length {len}");
            let expected = match header {
                2 => len as u8,
                4 => 126,
                _ => 127,
            };
            assert_eq!(f[1], 0x80 | expected, "length {len}");
            let mut d = Decoder::new(1 << 20);
            // The header byte by byte, then all but the last byte: nothing until it is whole.
            let (last, head) = (f.len() - 1, (header + 4 + 3).min(f.len() - 1));
            for b in &f[..head] {
                d.push(std::slice::from_ref(b));
                assert_eq!(d.next_message().unwrap(), None, "length {len}");
            }
            d.push(&f[head..last]);
            assert_eq!(d.next_message().unwrap(), None, "length {len}");
            d.push(&f[last..]);
            assert_eq!(d.next_message().unwrap(), Some(Message::Binary(payload.clone())), "length {len}");
            let mut d = Decoder::new(1 << 20);
            d.push(&server_frame(true, OP_BINARY, &payload));
            assert_eq!(d.next_message().unwrap(), Some(Message::Binary(payload)), "unmasked, length {len}");
        }
    }

    #[test]
    fn fragments_make_one_message_with_control_frames_between() {
        let mut d = Decoder::new(1 << 20);
        d.push(&server_frame(false, OP_BINARY, b"\x01he"));
        d.push(&server_frame(false, OP_CONTINUATION, b"l"));
        d.push(&server_frame(true, OP_PING, b"p"));
        d.push(&server_frame(true, OP_CONTINUATION, b"lo"));
        d.push(&server_frame(true, OP_TEXT, b"t"));
        assert_eq!(d.next_message().unwrap(), Some(Message::Ping(b"p".to_vec())));
        assert_eq!(d.next_message().unwrap(), Some(Message::Binary(b"\x01hello".to_vec())));
        assert_eq!(d.next_message().unwrap(), Some(Message::Text(b"t".to_vec())));
        assert_eq!(d.next_message().unwrap(), None);
    }

    #[test]
    fn close_gives_its_code() {
        let mut d = Decoder::new(1 << 20);
        d.push(&server_frame(true, OP_CLOSE, &[0x03, 0xe8, b'b', b'y', b'e']));
        d.push(&server_frame(true, OP_CLOSE, b""));
        assert_eq!(d.next_message().unwrap(), Some(Message::Close(Some(CLOSE_NORMAL))));
        assert_eq!(d.next_message().unwrap(), Some(Message::Close(None)));
    }

    #[test]
    fn broken_frames_are_refused() {
        let refused = |bytes: &[u8], max: usize| {
            let mut d = Decoder::new(max);
            d.push(bytes);
            d.next_message().unwrap_err()
        };
        // Over the limit, as a frame and as fragments adding up.
        assert_eq!(refused(&server_frame(true, OP_BINARY, &[0; 200]), 100), FrameError::TooLarge(200, 100));
        let mut two = server_frame(false, OP_BINARY, &[0; 60]);
        two.extend(server_frame(true, OP_CONTINUATION, &[0; 60]));
        assert_eq!(refused(&two, 100), FrameError::TooLarge(120, 100));
        // A length of 2^63 and more is refused before any of it is awaited.
        assert!(matches!(refused(&[0x82, 127, 0xff, 0, 0, 0, 0, 0, 0, 0], 100), FrameError::TooLarge(..)));
        assert_eq!(refused(&[0xc2, 0], 100), FrameError::Reserved);
        assert_eq!(refused(&[0x83, 0], 100), FrameError::Opcode(3));
        assert_eq!(refused(&server_frame(false, OP_PING, b""), 100), FrameError::BadControl);
        assert_eq!(refused(&server_frame(true, OP_PING, &[0; 126]), 1000), FrameError::BadControl);
        assert_eq!(refused(&server_frame(true, OP_CONTINUATION, b"x"), 100), FrameError::Continuation);
        let mut interleaved = server_frame(false, OP_BINARY, b"a");
        interleaved.extend(server_frame(true, OP_BINARY, b"b"));
        assert_eq!(refused(&interleaved, 100), FrameError::Interleaved);
    }

    #[test]
    fn the_request_offers_the_protocols() {
        let r = handshake_request("127.0.0.1:1", "/exec/abc", "a2V5", &["v4.channel.k8s.io", "channel.k8s.io"]);
        assert!(r.starts_with("GET /exec/abc HTTP/1.1\r\nHost: 127.0.0.1:1\r\n"), "{r}");
        assert!(r.contains("\r\nSec-WebSocket-Protocol: v4.channel.k8s.io, channel.k8s.io\r\n"), "{r}");
        assert!(r.ends_with("\r\n\r\n"));
    }
}
