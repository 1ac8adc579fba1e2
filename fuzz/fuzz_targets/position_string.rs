//! Fuzz target `position_string`: see `bao_fuzz_checks::position_string` for the properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    bao_fuzz_checks::position_string(data);
});
