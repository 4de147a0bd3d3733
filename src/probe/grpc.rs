//! gRPC health probes: one `grpc.health.v1.Health/Check` call over HTTP/2 cleartext with prior
//! knowledge, as the kubelet makes it (no TLS). Written by hand over a TCP stream because a
//! probe needs so little of HTTP/2: the request is sent with HPACK literals (no compression
//! state to keep), and the answer is read from the response's DATA frame (a
//! `HealthCheckResponse` whose status 1 is SERVING), so no header needs decoding. A response
//! without a message (a trailers-only gRPC error) or a reset stream is a failure.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::join_host_port;

const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
const DATA: u8 = 0;
const HEADERS: u8 = 1;
const RST_STREAM: u8 = 3;
const SETTINGS: u8 = 4;
const PING: u8 = 6;
const GOAWAY: u8 = 7;
const END_STREAM: u8 = 0x1;
const ACK: u8 = 0x1;
const END_HEADERS: u8 = 0x4;
const PADDED: u8 = 0x8;
/// Larger frames than any health answer needs are refused rather than buffered.
const MAX_FRAME: usize = 1 << 20;
const SERVING: u64 = 1;

fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let len = payload.len() as u32;
    let mut f = vec![(len >> 16) as u8, (len >> 8) as u8, len as u8, kind, flags];
    f.extend_from_slice(&(stream & 0x7fff_ffff).to_be_bytes());
    f.extend_from_slice(payload);
    f
}

/// An HPACK string literal, without Huffman coding.
fn hpack_string(out: &mut Vec<u8>, s: &str) {
    hpack_int(out, 7, 0, s.len());
    out.extend_from_slice(s.as_bytes());
}

/// An HPACK integer with an `n`-bit prefix, `mask` in the prefix byte's high bits.
fn hpack_int(out: &mut Vec<u8>, n: u32, mask: u8, mut v: usize) {
    let max = (1usize << n) - 1;
    if v < max {
        out.push(mask | v as u8);
        return;
    }
    out.push(mask | max as u8);
    v -= max;
    while v >= 128 {
        out.push((v % 128) as u8 | 0x80);
        v /= 128;
    }
    out.push(v as u8);
}

/// The request's header block: static-table entries and literals without indexing.
fn request_headers(authority: &str) -> Vec<u8> {
    let mut h = vec![0x83, 0x86]; // :method POST, :scheme http
    let literal = |h: &mut Vec<u8>, index: usize, value: &str| {
        hpack_int(h, 4, 0, index); // literal without indexing, indexed name
        hpack_string(h, value);
    };
    literal(&mut h, 4, "/grpc.health.v1.Health/Check"); // :path
    literal(&mut h, 1, authority); // :authority
    literal(&mut h, 31, "application/grpc"); // content-type
    literal(&mut h, 58, super::http::USER_AGENT); // user-agent
    h.push(0); // literal without indexing, new name
    hpack_string(&mut h, "te");
    hpack_string(&mut h, "trailers");
    h
}

/// A length-prefixed, uncompressed gRPC message holding HealthCheckRequest{service}.
fn request_message(service: &str) -> Vec<u8> {
    let mut pb = Vec::new();
    if !service.is_empty() {
        pb.push(0x0a); // field 1, length-delimited
        let mut len = service.len();
        while len >= 0x80 {
            pb.push((len as u8 & 0x7f) | 0x80);
            len >>= 7;
        }
        pb.push(len as u8);
        pb.extend_from_slice(service.as_bytes());
    }
    let mut m = vec![0];
    m.extend_from_slice(&(pb.len() as u32).to_be_bytes());
    m.extend_from_slice(&pb);
    m
}

/// The `status` field (1) of a HealthCheckResponse; 0 (UNKNOWN) when absent.
fn response_status(pb: &[u8]) -> Result<u64, GrpcError> {
    let mut i = 0;
    let varint = |i: &mut usize| -> Result<u64, GrpcError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *pb.get(*i).ok_or(GrpcError::Truncated)?;
            *i += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(GrpcError::BadVarint)
    };
    let mut status = 0;
    while i < pb.len() {
        let key = varint(&mut i)?;
        match key & 7 {
            0 => {
                let v = varint(&mut i)?;
                if key >> 3 == 1 {
                    status = v;
                }
            }
            2 => {
                // A length past usize cannot fit in the message either.
                let len = usize::try_from(varint(&mut i)?).unwrap_or(usize::MAX);
                i = i.checked_add(len).filter(|&e| e <= pb.len()).ok_or(GrpcError::Truncated)?;
            }
            _ => return Err(GrpcError::UnexpectedField),
        }
    }
    Ok(status)
}

async fn read_frame(s: &mut TcpStream) -> Result<(u8, u8, u32, Vec<u8>), GrpcError> {
    let mut head = [0u8; 9];
    s.read_exact(&mut head).await.map_err(GrpcError::Read)?;
    let len = (usize::from(head[0]) << 16) | (usize::from(head[1]) << 8) | usize::from(head[2]);
    if len > MAX_FRAME {
        return Err(GrpcError::FrameTooLarge);
    }
    let stream = u32::from_be_bytes([head[5], head[6], head[7], head[8]]) & 0x7fff_ffff;
    let mut payload = vec![0; len];
    s.read_exact(&mut payload).await.map_err(GrpcError::Read)?;
    Ok((head[3], head[4], stream, payload))
}

/// Why a health check did not say SERVING.
#[derive(Debug, thiserror::Error)]
pub enum GrpcError {
    #[error("connecting to {authority}")]
    Connect {
        authority: String,
        #[source]
        source: std::io::Error,
    },
    #[error("sending the request")]
    Send(#[source] std::io::Error),
    /// Acknowledging the server's SETTINGS or PING.
    #[error(transparent)]
    Ack(std::io::Error),
    #[error("reading the answer")]
    Read(#[source] std::io::Error),
    #[error("an HTTP/2 frame too large for a health answer")]
    FrameTooLarge,
    #[error("truncated message")]
    Truncated,
    #[error("bad varint")]
    BadVarint,
    #[error("unexpected field in the health response")]
    UnexpectedField,
    #[error("bad padding")]
    BadPadding,
    #[error("the service is NOT_SERVING")]
    NotServing,
    #[error("the service is unknown to the server (SERVICE_UNKNOWN)")]
    ServiceUnknown,
    #[error("health status {0}")]
    Status(u64),
    #[error("the server answered without a health status (a gRPC error)")]
    NoStatus,
    #[error("the server reset the request")]
    Reset,
    #[error("the server closed the connection")]
    GoAway,
}

/// One health check of `service` ("" for the server as a whole) at `host:port`.
pub async fn check(host: &str, port: u16, service: &str) -> Result<(), GrpcError> {
    let authority = join_host_port(host, port);
    let mut s = match TcpStream::connect((host, port)).await {
        Ok(s) => s,
        Err(source) => return Err(GrpcError::Connect { authority, source }),
    };
    let mut out = PREFACE.to_vec();
    out.extend(frame(SETTINGS, 0, 0, &[]));
    out.extend(frame(HEADERS, END_HEADERS, 1, &request_headers(&authority)));
    out.extend(frame(DATA, END_STREAM, 1, &request_message(service)));
    s.write_all(&out).await.map_err(GrpcError::Send)?;
    let mut body = Vec::new();
    loop {
        let (kind, flags, stream, mut payload) = read_frame(&mut s).await?;
        match kind {
            SETTINGS if flags & ACK == 0 => {
                s.write_all(&frame(SETTINGS, ACK, 0, &[])).await.map_err(GrpcError::Ack)?;
            }
            PING if flags & ACK == 0 => {
                s.write_all(&frame(PING, ACK, 0, &payload)).await.map_err(GrpcError::Ack)?;
            }
            DATA if stream == 1 => {
                if flags & PADDED != 0 {
                    let pad = usize::from(*payload.first().ok_or(GrpcError::BadPadding)?);
                    let end = payload.len().checked_sub(pad).filter(|&e| e >= 1).ok_or(GrpcError::BadPadding)?;
                    payload = payload[1..end].to_vec();
                }
                body.extend_from_slice(&payload);
                if body.len() >= 5 {
                    let len = u32::from_be_bytes([body[1], body[2], body[3], body[4]]) as usize;
                    if body.len() >= 5 + len {
                        return match response_status(&body[5..5 + len])? {
                            SERVING => Ok(()),
                            2 => Err(GrpcError::NotServing),
                            3 => Err(GrpcError::ServiceUnknown),
                            other => Err(GrpcError::Status(other)),
                        };
                    }
                }
            }
            HEADERS if stream == 1 && flags & END_STREAM != 0 => {
                return Err(GrpcError::NoStatus);
            }
            RST_STREAM if stream == 1 => return Err(GrpcError::Reset),
            GOAWAY => return Err(GrpcError::GoAway),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::net::TcpListener;

    /// A server of the smallest kind: reads the request, answers with `answer` frames, and
    /// returns what it read.
    async fn serve(answer: Vec<u8>) -> (u16, tokio::task::JoinHandle<Vec<u8>>) {
        serve_on("127.0.0.1", answer).await
    }

    async fn serve_on(host: &str, answer: Vec<u8>) -> (u16, tokio::task::JoinHandle<Vec<u8>>) {
        let listener = TcpListener::bind((host, 0)).await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let task = tokio::spawn(async move {
            let (mut s, _) = listener.accept().await.unwrap();
            let mut got = vec![0; PREFACE.len()];
            s.read_exact(&mut got).await.unwrap();
            // Frames until the request's DATA with END_STREAM.
            loop {
                let (kind, flags, _, payload) = read_frame(&mut s).await.unwrap();
                got.push(kind);
                got.extend_from_slice(&payload);
                if kind == DATA && flags & END_STREAM != 0 {
                    break;
                }
            }
            s.write_all(&answer).await.unwrap();
            let _ = s.read(&mut [0; 64]).await;
            got
        });
        (port, task)
    }

    fn answer(status: Option<u8>) -> Vec<u8> {
        let mut a = frame(SETTINGS, 0, 0, &[]);
        a.extend(frame(HEADERS, END_HEADERS, 1, &[0x88])); // :status 200
        match status {
            Some(st) => {
                a.extend(frame(DATA, 0, 1, &[0, 0, 0, 0, 2, 0x08, st]));
                a.extend(frame(HEADERS, END_HEADERS | END_STREAM, 1, &[0x00, 1, b'x', 1, b'0']));
            }
            None => a.extend(frame(HEADERS, END_HEADERS | END_STREAM, 1, &[0x00, 1, b'x', 1, b'5'])),
        }
        a
    }

    #[tokio::test]
    async fn serving_passes_and_the_request_is_well_formed() {
        let (port, server) = serve(answer(Some(1))).await;
        check("127.0.0.1", port, "svc").await.unwrap();
        let got = server.await.unwrap();
        assert!(got.starts_with(PREFACE));
        let text = String::from_utf8_lossy(&got);
        assert!(text.contains("/grpc.health.v1.Health/Check") && text.contains("application/grpc"));
        assert!(got.ends_with(&[0, 0, 0, 0, 5, 0x0a, 3, b's', b'v', b'c']), "HealthCheckRequest{{service}}");
    }

    /// A pod's IPv6 address goes into `:authority` in brackets (`[::1]:port`, as Go's
    /// net.JoinHostPort writes it); `::1:port` would not parse as an authority.
    #[tokio::test]
    async fn ipv6_authority_is_bracketed() {
        let (port, server) = serve_on("::1", answer(Some(1))).await;
        check("::1", port, "").await.unwrap();
        let got = server.await.unwrap();
        let want = format!("[::1]:{port}");
        assert!(got.windows(want.len()).any(|w| w == want.as_bytes()), "no {want} in the request");
    }

    #[tokio::test]
    async fn not_serving_and_errors_fail() {
        let (port, _s) = serve(answer(Some(2))).await;
        assert!(check("127.0.0.1", port, "").await.unwrap_err().to_string().contains("NOT_SERVING"));
        let (port, _s) = serve(answer(None)).await;
        assert!(check("127.0.0.1", port, "").await.unwrap_err().to_string().contains("without a health status"));
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        assert!(check("127.0.0.1", closed, "").await.is_err());
    }

    #[test]
    fn hpack_integers() {
        let mut v = Vec::new();
        hpack_int(&mut v, 4, 0, 58);
        assert_eq!(v, [0x0f, 43]);
        let mut v = Vec::new();
        hpack_int(&mut v, 7, 0, 300);
        assert_eq!(v, [0x7f, 173, 1]);
    }
}
