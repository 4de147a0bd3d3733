//! The gRPC channel to the runtime: HTTP/2 over its unix socket, through hyper's client (one
//! connection, multiplexed), with tonic's generated clients on top.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use hyper_util::rt::{TokioExecutor, TokioIo};
use tonic::codegen::{Body as GrpcBody, Bytes, StdError};

use super::api::image_service_client::ImageServiceClient;
use super::api::runtime_service_client::RuntimeServiceClient;
use crate::runtime::hyper_conn::HyperConn;

/// The HTTP/2 client every call goes through.
pub type Http = hyper_util::client::legacy::Client<UnixConnector, tonic::body::Body>;

/// The largest message podrun reads from the runtime: CRI messages can be large (a
/// ListContainers of many pods), and the kubelet allows 16 MiB. A larger one is refused
/// (`OutOfRange`) before its bytes are gathered.
pub const MAX_MESSAGE: usize = 16 * 1024 * 1024;

/// The largest block of response headers (and trailers) podrun takes from the runtime; h2's
/// default is 16 MiB.
const MAX_HEADER_LIST: u32 = 64 * 1024;

/// Both CRI services on one channel.
#[derive(Debug, Clone)]
pub struct Channel {
    pub runtime: RuntimeServiceClient<Http>,
    pub images: ImageServiceClient<Http>,
}

impl Channel {
    /// A channel to the socket at `path`; nothing is dialled until the first call.
    pub fn new(path: &str) -> Channel {
        let http: Http = hyper_util::client::legacy::Client::builder(TokioExecutor::new())
            .http2_only(true)
            .http2_max_header_list_size(MAX_HEADER_LIST)
            .build(UnixConnector(Arc::from(path)));
        Channel { runtime: runtime_client(http.clone()), images: images_client(http) }
    }
}

/// The authority is not used for routing (the socket is); gRPC needs one in the URI.
const ORIGIN: &str = "http://localhost";

/// The runtime service's client over `http`, its answers capped.
fn runtime_client<T>(http: T) -> RuntimeServiceClient<T>
where
    T: tonic::client::GrpcService<tonic::body::Body>,
    T::Error: Into<StdError>,
    T::ResponseBody: GrpcBody<Data = Bytes> + Send + 'static,
    <T::ResponseBody as GrpcBody>::Error: Into<StdError> + Send,
{
    RuntimeServiceClient::with_origin(http, hyper::Uri::from_static(ORIGIN)).max_decoding_message_size(MAX_MESSAGE)
}

/// The image service's client over `http`, its answers capped.
fn images_client<T>(http: T) -> ImageServiceClient<T>
where
    T: tonic::client::GrpcService<tonic::body::Body>,
    T::Error: Into<StdError>,
    T::ResponseBody: GrpcBody<Data = Bytes> + Send + 'static,
    <T::ResponseBody as GrpcBody>::Error: Into<StdError> + Send,
{
    ImageServiceClient::with_origin(http, hyper::Uri::from_static(ORIGIN)).max_decoding_message_size(MAX_MESSAGE)
}

/// Dials the runtime's socket for hyper.
#[derive(Debug, Clone)]
pub struct UnixConnector(Arc<str>);

/// A connection to the socket, as hyper wants it.
pub type Socket = HyperConn<tokio::net::UnixStream>;

impl tower_service::Service<hyper::Uri> for UnixConnector {
    type Response = TokioIo<Socket>;
    type Error = io::Error;
    type Future = Pin<Box<dyn Future<Output = io::Result<TokioIo<Socket>>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _: hyper::Uri) -> Self::Future {
        let path = Arc::clone(&self.0);
        Box::pin(async move { Ok(TokioIo::new(HyperConn(tokio::net::UnixStream::connect(&*path).await?))) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::body::{Body, Frame};
    use prost::Message;

    /// A runtime that answers every call with `frame`: a gRPC message as sent on the wire.
    #[derive(Clone)]
    struct Answers(Bytes);

    /// A body of one frame of data, then the gRPC trailers.
    struct OneFrame(Option<Bytes>, bool);

    impl Body for OneFrame {
        type Data = Bytes;
        type Error = std::convert::Infallible;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
            if let Some(data) = self.0.take() {
                return Poll::Ready(Some(Ok(Frame::data(data))));
            }
            if std::mem::replace(&mut self.1, false) {
                let mut trailers = hyper::HeaderMap::new();
                trailers.insert("grpc-status", hyper::header::HeaderValue::from_static("0"));
                return Poll::Ready(Some(Ok(Frame::trailers(trailers))));
            }
            Poll::Ready(None)
        }
    }

    impl tower_service::Service<hyper::Request<tonic::body::Body>> for Answers {
        type Response = hyper::Response<tonic::body::Body>;
        type Error = std::convert::Infallible;
        type Future = std::future::Ready<Result<Self::Response, Self::Error>>;

        fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }

        fn call(&mut self, _: hyper::Request<tonic::body::Body>) -> Self::Future {
            let body = tonic::body::Body::new(OneFrame(Some(self.0.clone()), true));
            let answer = hyper::Response::builder().header("content-type", "application/grpc").body(body);
            std::future::ready(Ok(answer.expect("a valid response")))
        }
    }

    /// A gRPC frame: not compressed, its length, the message.
    fn frame(len: usize, message: &[u8]) -> Bytes {
        let mut f = vec![0u8];
        f.extend_from_slice(&u32::try_from(len).unwrap().to_be_bytes());
        f.extend_from_slice(message);
        Bytes::from(f)
    }

    #[tokio::test]
    async fn a_message_over_the_cap_is_refused_before_it_is_read() {
        // 8 MiB: past tonic's default of 4 MiB, within podrun's cap.
        let big = super::super::api::VersionResponse { runtime_name: "r".repeat(8 << 20), ..Default::default() };
        let bytes = big.encode_to_vec();
        let mut client = runtime_client(Answers(frame(bytes.len(), &bytes)));
        let answer = client.version(super::super::api::VersionRequest::default()).await.unwrap();
        assert_eq!(answer.into_inner().runtime_name.len(), 8 << 20, "a message of 8 MiB is read");
        // A frame that says it holds more than 16 MiB: refused on its header, its bytes unread.
        let mut client = runtime_client(Answers(frame(MAX_MESSAGE + 1, b"")));
        let e = client.version(super::super::api::VersionRequest::default()).await.unwrap_err();
        assert_eq!(e.code(), tonic::Code::OutOfRange, "{e}");
        let mut client = images_client(Answers(frame(MAX_MESSAGE + 1, b"")));
        let e = client.list_images(super::super::api::ListImagesRequest::default()).await.unwrap_err();
        assert_eq!(e.code(), tonic::Code::OutOfRange, "{e}");
    }
}
