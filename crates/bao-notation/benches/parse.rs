//! Parse throughput (filled in below).
fn main() {}
