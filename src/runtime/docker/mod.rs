//! Docker Engine (and Podman's Docker-compatible API), through bollard.
