//! SPDY/3.1 framing as the runtimes' streaming servers speak it (the Go `spdystream` under
//! Kubernetes' `httpstream`): frames in, frames out, and header blocks compressed with zlib
//! over the SPDY dictionary, one compression context per direction for the whole connection.

use std::sync::OnceLock;

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};

/// The flag that ends a stream in one direction (on DATA, SYN_STREAM, SYN_REPLY, HEADERS).
pub const FLAG_FIN: u8 = 0x01;
/// A stream's window before any WINDOW_UPDATE.
pub const INITIAL_WINDOW: u32 = 64 * 1024;
/// The largest header block taken once decompressed (the servers send empty ones).
const MAX_HEADER_BLOCK: usize = 64 * 1024;

const VERSION: u16 = 3;
const SYN_STREAM: u16 = 1;
const SYN_REPLY: u16 = 2;
const RST_STREAM: u16 = 3;
const SETTINGS: u16 = 4;
const PING: u16 = 6;
const GOAWAY: u16 = 7;
const HEADERS: u16 = 8;
const WINDOW_UPDATE: u16 = 9;
/// RST_STREAM's status for a stream the client does not accept.
pub const REFUSED_STREAM: u32 = 3;
/// The SETTINGS entry that changes every stream's initial window.
pub const SETTINGS_INITIAL_WINDOW_SIZE: u32 = 7;

/// A header block: lower-case names and their values (several joined by NUL).
pub type Headers = Vec<(String, String)>;

/// A frame from the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    Data {
        stream: u32,
        fin: bool,
        data: Vec<u8>,
    },
    SynStream {
        stream: u32,
        headers: Headers,
    },
    SynReply {
        stream: u32,
        fin: bool,
        headers: Headers,
    },
    Headers {
        stream: u32,
        fin: bool,
    },
    RstStream {
        stream: u32,
        status: u32,
    },
    /// The entries: ids and values.
    Settings(Vec<(u32, u32)>),
    Ping(u32),
    GoAway {
        last_good: u32,
    },
    WindowUpdate {
        stream: u32,
        delta: u32,
    },
    /// A control frame of a type SPDY/3.1 does not define (or NOOP, CREDENTIAL): the spec has
    /// it ignored.
    Other(u16),
}

/// Bytes that do not make SPDY/3.1 frames; the connection is then no longer usable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpdyError {
    #[error("a SPDY control frame of version {0}, not 3")]
    Version(u16),
    #[error("a SPDY control frame of type {kind} with {len} bytes, too short")]
    Short { kind: u16, len: usize },
    #[error("a SPDY header block does not decompress: {0}")]
    Inflate(String),
    #[error("a SPDY header block over {MAX_HEADER_BLOCK} bytes")]
    HeadersTooLarge,
    #[error("a broken SPDY header block")]
    BadHeaders,
    #[error("a SPDY header block does not compress: {0}")]
    Deflate(String),
}

/// The dictionary both sides' zlib contexts start from (SPDY/3 section 2.6.10.1): these
/// names, each after its length in four bytes, then the words of `TAIL`.
pub fn dictionary() -> &'static [u8] {
    const NAMES: [&str; 65] = [
        "options",
        "head",
        "post",
        "put",
        "delete",
        "trace",
        "accept",
        "accept-charset",
        "accept-encoding",
        "accept-language",
        "accept-ranges",
        "age",
        "allow",
        "authorization",
        "cache-control",
        "connection",
        "content-base",
        "content-encoding",
        "content-language",
        "content-length",
        "content-location",
        "content-md5",
        "content-range",
        "content-type",
        "date",
        "etag",
        "expect",
        "expires",
        "from",
        "host",
        "if-match",
        "if-modified-since",
        "if-none-match",
        "if-range",
        "if-unmodified-since",
        "last-modified",
        "location",
        "max-forwards",
        "pragma",
        "proxy-authenticate",
        "proxy-authorization",
        "range",
        "referer",
        "retry-after",
        "server",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "user-agent",
        "vary",
        "via",
        "warning",
        "www-authenticate",
        "method",
        "get",
        "status",
        "200 OK",
        "version",
        "HTTP/1.1",
        "url",
        "public",
        "set-cookie",
        "keep-alive",
        "origin",
    ];
    const TAIL: &str = "100101201202205206300302303304305306307402405406407408409410411412413414415416417502\
        504505203 Non-Authoritative Information204 No Content301 Moved Permanently400 Bad Request\
        401 Unauthorized403 Forbidden404 Not Found500 Internal Server Error501 Not Implemented\
        503 Service UnavailableJan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 Mon, \
        Tue, Wed, Thu, Fri, Sat, Sun, GMTchunked,text/html,image/png,image/jpg,image/gif,\
        application/xml,application/xhtml+xml,text/plain,text/javascript,publicprivatemax-age=\
        gzip,deflate,sdchcharset=utf-8charset=iso-8859-1,utf-,*,enq=0.";
    static DICTIONARY: OnceLock<Vec<u8>> = OnceLock::new();
    DICTIONARY.get_or_init(|| {
        let mut d = Vec::with_capacity(1423);
        for name in NAMES {
            d.extend_from_slice(&(name.len() as u32).to_be_bytes());
            d.extend_from_slice(name.as_bytes());
        }
        d.extend_from_slice(TAIL.as_bytes());
        d
    })
}

/// The first eight bytes of a control frame.
fn control_head(kind: u16, flags: u8, len: usize) -> [u8; 8] {
    let [v0, v1] = (0x8000 | VERSION).to_be_bytes();
    let [k0, k1] = kind.to_be_bytes();
    let [_, l0, l1, l2] = (len as u32).to_be_bytes();
    [v0, v1, k0, k1, flags, l0, l1, l2]
}

/// A DATA frame of `data` (at most 2^24 - 1 bytes) on `stream`; `fin` ends the stream.
pub fn data(stream: u32, data: &[u8], fin: bool) -> Vec<u8> {
    let mut f = Vec::with_capacity(8 + data.len());
    f.extend_from_slice(&(stream & 0x7fff_ffff).to_be_bytes());
    f.push(if fin { FLAG_FIN } else { 0 });
    f.extend_from_slice(&(data.len() as u32).to_be_bytes()[1..]);
    f.extend_from_slice(data);
    f
}

/// A WINDOW_UPDATE giving `stream` `delta` more bytes.
pub fn window_update(stream: u32, delta: u32) -> Vec<u8> {
    let mut f = control_head(WINDOW_UPDATE, 0, 8).to_vec();
    f.extend_from_slice(&(stream & 0x7fff_ffff).to_be_bytes());
    f.extend_from_slice(&(delta & 0x7fff_ffff).to_be_bytes());
    f
}

/// A PING (the answer to the server's is the same frame).
pub fn ping(id: u32) -> Vec<u8> {
    let mut f = control_head(PING, 0, 4).to_vec();
    f.extend_from_slice(&id.to_be_bytes());
    f
}

/// A RST_STREAM of `stream` with `status`.
pub fn rst_stream(stream: u32, status: u32) -> Vec<u8> {
    let mut f = control_head(RST_STREAM, 0, 8).to_vec();
    f.extend_from_slice(&(stream & 0x7fff_ffff).to_be_bytes());
    f.extend_from_slice(&status.to_be_bytes());
    f
}

/// A SETTINGS frame of one entry, as a server sends it.
#[cfg(test)]
pub fn settings(id: u32, value: u32) -> Vec<u8> {
    let mut f = control_head(SETTINGS, 0, 12).to_vec();
    f.extend_from_slice(&1u32.to_be_bytes());
    f.extend_from_slice(&id.to_be_bytes());
    f.extend_from_slice(&value.to_be_bytes());
    f
}

/// A GOAWAY, as a server sends it.
#[cfg(test)]
pub fn goaway(last_good: u32) -> Vec<u8> {
    let mut f = control_head(GOAWAY, 0, 8).to_vec();
    f.extend_from_slice(&last_good.to_be_bytes());
    f.extend_from_slice(&0u32.to_be_bytes());
    f
}

/// The uncompressed header block of `headers`, names lower-cased as SPDY wants them.
fn header_block(headers: &[(&str, &str)]) -> Vec<u8> {
    let mut b = (headers.len() as u32).to_be_bytes().to_vec();
    for (name, value) in headers {
        b.extend_from_slice(&(name.len() as u32).to_be_bytes());
        b.extend(name.bytes().map(|c| c.to_ascii_lowercase()));
        b.extend_from_slice(&(value.len() as u32).to_be_bytes());
        b.extend_from_slice(value.as_bytes());
    }
    b
}

/// The frames that carry header blocks, compressed in one context for the connection.
pub struct Encoder {
    deflate: Compress,
}

impl Encoder {
    pub fn new() -> Encoder {
        let mut deflate = Compress::new(Compression::default(), true);
        // A fresh context always takes it; were it refused, the blocks would still be a valid
        // zlib stream (without the dictionary's id), which the servers' readers take too.
        let _ = deflate.set_dictionary(dictionary());
        Encoder { deflate }
    }

    /// A SYN_STREAM opening `stream` (odd: the client's) with `headers`.
    ///
    /// # Errors
    /// When zlib fails, which leaves the context unusable.
    pub fn syn_stream(&mut self, stream: u32, headers: &[(&str, &str)]) -> Result<Vec<u8>, SpdyError> {
        let block = self.compress(&header_block(headers))?;
        let mut f = control_head(SYN_STREAM, 0, 10 + block.len()).to_vec();
        f.extend_from_slice(&(stream & 0x7fff_ffff).to_be_bytes());
        // No associated stream, priority 0, slot 0.
        f.extend_from_slice(&[0, 0, 0, 0, 0, 0]);
        f.extend_from_slice(&block);
        Ok(f)
    }

    /// A SYN_REPLY accepting `stream`, as a server sends it.
    #[cfg(test)]
    pub fn syn_reply(&mut self, stream: u32, fin: bool, headers: &[(&str, &str)]) -> Vec<u8> {
        let block = self.compress(&header_block(headers)).unwrap();
        let mut f = control_head(SYN_REPLY, if fin { FLAG_FIN } else { 0 }, 4 + block.len()).to_vec();
        f.extend_from_slice(&stream.to_be_bytes());
        f.extend_from_slice(&block);
        f
    }

    /// `raw` compressed and flushed to a byte boundary, so the peer can read it whole.
    fn compress(&mut self, raw: &[u8]) -> Result<Vec<u8>, SpdyError> {
        let mut out = Vec::with_capacity(raw.len() + 64);
        let mut at = 0;
        loop {
            if out.capacity() - out.len() < 64 {
                out.reserve(256);
            }
            let before = self.deflate.total_in();
            self.deflate
                .compress_vec(&raw[at..], &mut out, FlushCompress::Sync)
                .map_err(|e| SpdyError::Deflate(e.to_string()))?;
            at += (self.deflate.total_in() - before) as usize;
            // Room left after a sync flush means all of it is out.
            if at == raw.len() && out.len() < out.capacity() {
                return Ok(out);
            }
        }
    }
}

/// Splits the bytes read from the server into frames, holding what is not whole yet.
pub struct Decoder {
    buf: Vec<u8>,
    inflate: Decompress,
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder { buf: Vec::new(), inflate: Decompress::new(true) }
    }

    /// Bytes read from the connection.
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next whole frame, if the bytes pushed so far hold one. A frame's length field has 24
    /// bits: none is over 16 MiB.
    ///
    /// # Errors
    /// When the bytes break SPDY/3.1.
    pub fn next_frame(&mut self) -> Result<Option<Frame>, SpdyError> {
        let b = &self.buf;
        if b.len() < 8 {
            return Ok(None);
        }
        let len = u32::from_be_bytes([0, b[5], b[6], b[7]]) as usize;
        if b.len() < 8 + len {
            return Ok(None);
        }
        let (control, flags) = (b[0] & 0x80 != 0, b[4]);
        let word = u32::from_be_bytes([b[0] & 0x7f, b[1], b[2], b[3]]);
        let body: Vec<u8> = self.buf.drain(..8 + len).skip(8).collect();
        if !control {
            return Ok(Some(Frame::Data { stream: word, fin: flags & FLAG_FIN != 0, data: body }));
        }
        let (version, kind) = ((word >> 16) as u16, word as u16);
        if version != VERSION {
            return Err(SpdyError::Version(version));
        }
        self.control(kind, flags, &body).map(Some)
    }

    fn control(&mut self, kind: u16, flags: u8, body: &[u8]) -> Result<Frame, SpdyError> {
        let need = match kind {
            SYN_STREAM => 10,
            SYN_REPLY | HEADERS | PING | SETTINGS | GOAWAY => 4,
            RST_STREAM | WINDOW_UPDATE => 8,
            _ => 0,
        };
        if body.len() < need {
            return Err(SpdyError::Short { kind, len: body.len() });
        }
        let word = |at: usize| u32::from_be_bytes([body[at], body[at + 1], body[at + 2], body[at + 3]]);
        let stream = if need >= 4 { word(0) & 0x7fff_ffff } else { 0 };
        let fin = flags & FLAG_FIN != 0;
        Ok(match kind {
            // Every header block goes through the one context, read or not.
            SYN_STREAM => Frame::SynStream { stream, headers: self.headers(&body[10..])? },
            SYN_REPLY => Frame::SynReply { stream, fin, headers: self.headers(&body[4..])? },
            HEADERS => {
                self.headers(&body[4..])?;
                Frame::Headers { stream, fin }
            }
            RST_STREAM => Frame::RstStream { stream, status: word(4) },
            SETTINGS => {
                let n = word(0) as usize;
                if body.len() < 4 + n.saturating_mul(8) {
                    return Err(SpdyError::Short { kind, len: body.len() });
                }
                Frame::Settings((0..n).map(|i| (word(4 + 8 * i) & 0x00ff_ffff, word(8 + 8 * i))).collect())
            }
            PING => Frame::Ping(word(0)),
            GOAWAY => Frame::GoAway { last_good: stream },
            WINDOW_UPDATE => Frame::WindowUpdate { stream, delta: word(4) & 0x7fff_ffff },
            other => Frame::Other(other),
        })
    }

    /// A header block decompressed and read.
    fn headers(&mut self, block: &[u8]) -> Result<Headers, SpdyError> {
        parse_block(&self.decompress(block)?)
    }

    fn decompress(&mut self, block: &[u8]) -> Result<Vec<u8>, SpdyError> {
        let mut out = Vec::with_capacity(256);
        let mut at = 0;
        loop {
            if out.len() == out.capacity() {
                if out.len() >= MAX_HEADER_BLOCK {
                    return Err(SpdyError::HeadersTooLarge);
                }
                out.reserve(out.len());
            }
            let (in_before, out_before) = (self.inflate.total_in(), out.len());
            let result = self.inflate.decompress_vec(&block[at..], &mut out, FlushDecompress::Sync);
            at += (self.inflate.total_in() - in_before) as usize;
            match result {
                Ok(Status::StreamEnd) => return Err(SpdyError::Inflate("the stream ended".to_owned())),
                Ok(_) => {}
                // The first block asks for the dictionary once its zlib header is read.
                Err(e) if e.needs_dictionary().is_some() => {
                    self.inflate.set_dictionary(dictionary()).map_err(|e| SpdyError::Inflate(e.to_string()))?;
                    continue;
                }
                Err(e) => return Err(SpdyError::Inflate(e.to_string())),
            }
            if at == block.len() && out.len() < out.capacity() {
                return Ok(out);
            }
            if at == block.len() && out.len() == out_before {
                return Err(SpdyError::Inflate("no progress".to_owned()));
            }
        }
    }
}

/// The pairs of an uncompressed header block.
fn parse_block(b: &[u8]) -> Result<Headers, SpdyError> {
    /// The next `n` bytes from `at` on.
    fn take<'a>(b: &'a [u8], at: &mut usize, n: usize) -> Result<&'a [u8], SpdyError> {
        let s = b.get(*at..at.checked_add(n).ok_or(SpdyError::BadHeaders)?).ok_or(SpdyError::BadHeaders)?;
        *at += n;
        Ok(s)
    }
    fn word(b: &[u8], at: &mut usize) -> Result<usize, SpdyError> {
        let w = take(b, at, 4)?;
        Ok(u32::from_be_bytes([w[0], w[1], w[2], w[3]]) as usize)
    }
    let mut at = 0;
    let count = word(b, &mut at)?;
    let mut headers = Vec::new();
    for _ in 0..count {
        let len = word(b, &mut at)?;
        let name = String::from_utf8_lossy(take(b, &mut at, len)?).into_owned();
        let len = word(b, &mut at)?;
        let value = String::from_utf8_lossy(take(b, &mut at, len)?).into_owned();
        headers.push((name, value));
    }
    Ok(headers)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server_syn_reply(enc: &mut Encoder, stream: u32, fin: bool, headers: &[(&str, &str)]) -> Vec<u8> {
        enc.syn_reply(stream, fin, headers)
    }

    #[test]
    fn the_dictionary_is_the_specs() {
        let d = dictionary();
        assert_eq!(d.len(), 1423);
        // Its Adler-32, the id a zlib header names it by (Go's spdy package: 0xe3c6a7c2).
        let (mut a, mut b) = (1u32, 0u32);
        for &byte in d {
            a = (a + u32::from(byte)) % 65521;
            b = (b + a) % 65521;
        }
        assert_eq!((b << 16) | a, 0xe3c6_a7c2);
    }

    #[test]
    fn header_blocks_round_trip_through_one_context_with_the_dictionary() {
        let mut enc = Encoder::new();
        let mut dec = Decoder::new();
        let first = server_syn_reply(&mut enc, 1, false, &[("streamType", "error"), ("x", "a\0b")]);
        // The zlib header names the dictionary: FDICT set and its id.
        let block = &first[12..];
        assert_eq!(block[1] & 0x20, 0x20, "FDICT");
        assert_eq!(block[2..6], 0xe3c6_a7c2u32.to_be_bytes());
        dec.push(&first);
        // Later blocks refer back to earlier ones: each must be read in order.
        for (stream, value) in [(3, "stdin"), (5, "stdout"), (7, "stdout")] {
            dec.push(&server_syn_reply(&mut enc, stream, stream == 7, &[("streamtype", value)]));
        }
        let want = |stream, fin, h: &[(&str, &str)]| Frame::SynReply {
            stream,
            fin,
            headers: h.iter().map(|(n, v)| ((*n).to_owned(), (*v).to_owned())).collect(),
        };
        assert_eq!(dec.next_frame().unwrap(), Some(want(1, false, &[("streamtype", "error"), ("x", "a\0b")])));
        assert_eq!(dec.next_frame().unwrap(), Some(want(3, false, &[("streamtype", "stdin")])));
        assert_eq!(dec.next_frame().unwrap(), Some(want(5, false, &[("streamtype", "stdout")])));
        assert_eq!(dec.next_frame().unwrap(), Some(want(7, true, &[("streamtype", "stdout")])));
        assert_eq!(dec.next_frame().unwrap(), None);
    }

    #[test]
    fn a_syn_stream_is_laid_out_as_spdy_3_says() {
        let f = Encoder::new().syn_stream(5, &[("streamType", "stdout")]).unwrap();
        assert_eq!(f[..5], [0x80, 3, 0, 1, 0]);
        assert_eq!(u32::from_be_bytes([0, f[5], f[6], f[7]]) as usize, f.len() - 8);
        assert_eq!(f[8..18], [0, 0, 0, 5, 0, 0, 0, 0, 0, 0]);
        // The server reads it with a context of its own: a decoder reads a SYN_STREAM's block.
        let mut dec = Decoder::new();
        dec.push(&f);
        assert_eq!(
            dec.next_frame().unwrap(),
            Some(Frame::SynStream { stream: 5, headers: vec![("streamtype".to_owned(), "stdout".to_owned())] })
        );
        let mut raw = Decompress::new(true);
        let mut out = Vec::with_capacity(1024);
        let e = raw.decompress_vec(&f[18..], &mut out, FlushDecompress::Sync).unwrap_err();
        assert_eq!(e.needs_dictionary(), Some(0xe3c6_a7c2));
        raw.set_dictionary(dictionary()).unwrap();
        let consumed = raw.total_in() as usize;
        raw.decompress_vec(&f[18 + consumed..], &mut out, FlushDecompress::Sync).unwrap();
        assert_eq!(parse_block(&out).unwrap(), [("streamtype".to_owned(), "stdout".to_owned())]);
    }

    #[test]
    fn data_and_control_frames_round_trip_split_anywhere() {
        let payload: Vec<u8> = (0..70_000u32).map(|i| (i % 251) as u8).collect();
        let mut bytes = data(3, &payload, false);
        bytes.extend(data(3, b"", true));
        bytes.extend(window_update(5, 1000));
        bytes.extend(ping(2));
        bytes.extend(rst_stream(7, 5));
        bytes.extend(control_head(SETTINGS, 0, 12));
        bytes.extend([0, 0, 0, 1, 0, 0, 0, 7, 0, 1, 0, 0]);
        bytes.extend(control_head(GOAWAY, 0, 8));
        bytes.extend([0, 0, 0, 9, 0, 0, 0, 0]);
        bytes.extend(control_head(10, 0, 0));
        let mut dec = Decoder::new();
        let mut frames = Vec::new();
        for chunk in bytes.chunks(777) {
            dec.push(chunk);
            while let Some(f) = dec.next_frame().unwrap() {
                frames.push(f);
            }
        }
        assert_eq!(
            frames,
            [
                Frame::Data { stream: 3, fin: false, data: payload },
                Frame::Data { stream: 3, fin: true, data: Vec::new() },
                Frame::WindowUpdate { stream: 5, delta: 1000 },
                Frame::Ping(2),
                Frame::RstStream { stream: 7, status: 5 },
                Frame::Settings(vec![(SETTINGS_INITIAL_WINDOW_SIZE, 65536)]),
                Frame::GoAway { last_good: 9 },
                Frame::Other(10),
            ]
        );
    }

    #[test]
    fn broken_frames_and_blocks_are_refused() {
        let refused = |bytes: &[u8]| {
            let mut d = Decoder::new();
            d.push(bytes);
            d.next_frame().unwrap_err()
        };
        assert_eq!(refused(&[0x80, 2, 0, 2, 0, 0, 0, 4, 0, 0, 0, 1]), SpdyError::Version(2));
        assert_eq!(refused(&[0x80, 3, 0, 9, 0, 0, 0, 4, 0, 0, 0, 1]), SpdyError::Short { kind: 9, len: 4 });
        // Settings that claim more entries than the frame holds.
        assert!(matches!(refused(&[0x80, 3, 0, 4, 0, 0, 0, 4, 0xff, 0xff, 0xff, 0xff]), SpdyError::Short { .. }));
        // A header block that is not zlib.
        let mut junk = control_head(SYN_REPLY, 0, 8).to_vec();
        junk.extend([0, 0, 0, 1, 1, 2, 3, 4]);
        assert!(matches!(refused(&junk), SpdyError::Inflate(_)));
        // A block whose pair runs past its end; one that inflates past the limit.
        assert_eq!(parse_block(&[0, 0, 0, 1, 0, 0, 0, 9, b'a']), Err(SpdyError::BadHeaders));
        let mut enc = Encoder::new();
        let big = "v".repeat(MAX_HEADER_BLOCK * 2);
        let mut dec = Decoder::new();
        dec.push(&server_syn_reply(&mut enc, 1, false, &[("a", &big)]));
        assert_eq!(dec.next_frame().unwrap_err(), SpdyError::HeadersTooLarge);
    }
}
