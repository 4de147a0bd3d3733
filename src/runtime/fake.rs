//! A recording fake runtime for unit tests.
