//! The gRPC channel to the runtime: HTTP/2 over its unix socket, through hyper's client (one
//! connection, multiplexed), with tonic's generated clients on top.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use hyper_util::rt::{TokioExecutor, TokioIo};

use super::api::image_service_client::ImageServiceClient;
use super::api::runtime_service_client::RuntimeServiceClient;
use crate::runtime::hyper_conn::HyperConn;

/// The HTTP/2 client every call goes through.
pub type Http = hyper_util::client::legacy::Client<UnixConnector, tonic::body::Body>;

/// CRI messages can be large (a ListContainers of many pods); the kubelet allows 16 MiB.
const MAX_MESSAGE: usize = 16 * 1024 * 1024;

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
            .build(UnixConnector(Arc::from(path)));
        // The authority is not used for routing (the socket is); gRPC needs one in the URI.
        let origin = hyper::Uri::from_static("http://localhost");
        Channel {
            runtime: RuntimeServiceClient::with_origin(http.clone(), origin.clone())
                .max_decoding_message_size(MAX_MESSAGE),
            images: ImageServiceClient::with_origin(http, origin).max_decoding_message_size(MAX_MESSAGE),
        }
    }
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
