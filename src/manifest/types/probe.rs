//! Container probes (`livenessProbe`, `readinessProbe`, `startupProbe`) and their handlers.
//!
//! Shapes follow the Kubernetes API. Defaults (`defaults.rs`) and the API server's rules
//! (`validate/probe.rs`) live elsewhere; these types only say what a manifest may hold.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use super::ExecAction;
use crate::manifest::yaml::strict;

/// One probe. Exactly one handler must be set (checked by validation).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Probe {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exec: Option<ExecAction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_get: Option<HttpGetAction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcp_socket: Option<TcpSocketAction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grpc: Option<GrpcAction>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::int32::opt_int32")]
    pub initial_delay_seconds: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::int32::opt_int32")]
    pub timeout_seconds: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::int32::opt_int32")]
    pub period_seconds: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::int32::opt_int32")]
    pub success_threshold: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::int32::opt_int32")]
    pub failure_threshold: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termination_grace_period_seconds: Option<i64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpGetAction {
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub path: Option<String>,
    /// Required by Kubernetes; absent reads as 0, which validation refuses as out of range
    /// (what the API server says too).
    #[serde(default)]
    pub port: IntOrString,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub host: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub scheme: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub http_headers: Vec<HttpHeader>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpHeader {
    #[serde(default, deserialize_with = "strict::string")]
    pub name: String,
    #[serde(default, deserialize_with = "strict::string")]
    pub value: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TcpSocketAction {
    #[serde(default)]
    pub port: IntOrString,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub host: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GrpcAction {
    #[serde(default, deserialize_with = "super::int32::int32")]
    pub port: i64,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "strict::opt_string")]
    pub service: Option<String>,
}

/// Kubernetes' `intstr.IntOrString`: a port number (`8080`) or a port name (`http`). It
/// serialises back the way it was written, so `"8080"` (a string, which validation refuses as
/// a port name) stays distinct from `8080`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum IntOrString {
    Int(i64),
    String(String),
}

impl Default for IntOrString {
    /// What Kubernetes reads for an absent value: the integer 0.
    fn default() -> Self {
        IntOrString::Int(0)
    }
}

impl fmt::Display for IntOrString {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            IntOrString::Int(n) => write!(f, "{n}"),
            IntOrString::String(s) => f.write_str(s),
        }
    }
}

impl Serialize for IntOrString {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            IntOrString::Int(n) => s.serialize_i64(*n),
            IntOrString::String(v) => s.serialize_str(v),
        }
    }
}

/// A hand-written visitor rather than `#[serde(untagged)]`, whose "did not match any variant"
/// error loses the YAML location and says nothing a user can act on.
struct IntOrStringVisitor;

impl Visitor<'_> for IntOrStringVisitor {
    type Value = IntOrString;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an integer or a string (a port number or a port name)")
    }

    // intstr's IntVal is an int32: a larger number is a decode error, as in the API server.
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        super::int32::in_range(i128::from(v)).map(IntOrString::Int)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        super::int32::in_range(i128::from(v)).map(IntOrString::Int)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(IntOrString::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(IntOrString::String(v))
    }

    // `null` counts as absent, as everywhere else in a manifest.
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(IntOrString::default())
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(IntOrString::default())
    }
}

impl<'de> Deserialize<'de> for IntOrString {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(IntOrStringVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_or_string_reads_and_writes_back_as_written() {
        let a: TcpSocketAction = serde_yaml::from_str("port: 8080\n").unwrap();
        assert_eq!(a.port, IntOrString::Int(8080));
        let b: TcpSocketAction = serde_yaml::from_str("port: http\n").unwrap();
        assert_eq!(b.port, IntOrString::String("http".into()));
        let c: TcpSocketAction = serde_yaml::from_str("port: '8080'\n").unwrap();
        assert_eq!(c.port, IntOrString::String("8080".into()));
        let d: TcpSocketAction = serde_yaml::from_str("port: ~\n").unwrap();
        assert_eq!(d.port, IntOrString::Int(0));
        assert_eq!(serde_json::to_value(&a).unwrap(), serde_json::json!({"port": 8080}));
        assert_eq!(serde_json::to_value(&c).unwrap(), serde_json::json!({"port": "8080"}));
        let e: TcpSocketAction = serde_yaml::from_str("port: 2147483647\n").unwrap();
        assert_eq!(e.port, IntOrString::Int(2147483647));
        for bad in ["port: 1.5\n", "port: true\n", "port: [1]\n", "port: 2147483648\n", "port: -2147483649\n"] {
            let e = serde_yaml::from_str::<TcpSocketAction>(bad).unwrap_err();
            assert!(e.location().is_some(), "{bad}: {e}");
        }
    }

    #[test]
    fn probe_timings_and_grpc_ports_are_int32() {
        for bad in [
            "periodSeconds: 2147483648\n",
            "timeoutSeconds: 4294967297\n",
            "initialDelaySeconds: -2147483649\n",
            "successThreshold: 9223372036854775808\n",
            "failureThreshold: 2147483648\n",
            "grpc: {port: 2147483648}\n",
        ] {
            let e = serde_yaml::from_str::<Probe>(bad).unwrap_err();
            assert!(e.location().is_some() && e.to_string().contains("expected an int32"), "{bad}: {e}");
        }
        let p: Probe = serde_yaml::from_str("periodSeconds: 2147483647\ngrpc: {port: 2147483647}\n").unwrap();
        assert_eq!((p.period_seconds, p.grpc.map(|g| g.port)), (Some(2147483647), Some(2147483647)));
    }

    #[test]
    fn a_probe_loads_in_camel_case() {
        let p: Probe = serde_yaml::from_str(
            "httpGet: {path: /healthz, port: http, scheme: HTTP, httpHeaders: [{name: X-A, value: b}]}\n\
             initialDelaySeconds: 2\nperiodSeconds: 5\nfailureThreshold: 4\n",
        )
        .unwrap();
        let h = p.http_get.as_ref().unwrap();
        assert_eq!(h.path.as_deref(), Some("/healthz"));
        assert_eq!(h.http_headers, vec![HttpHeader { name: "X-A".into(), value: "b".into() }]);
        assert_eq!((p.initial_delay_seconds, p.period_seconds, p.failure_threshold), (Some(2), Some(5), Some(4)));
        assert!(p.exec.is_none() && p.tcp_socket.is_none() && p.grpc.is_none());
    }
}
