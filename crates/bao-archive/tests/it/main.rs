//! Integration tests of bao-archive.
