//! Fuzz target `play_arbitrary`: see `bao_fuzz_checks::play_arbitrary` for the properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    bao_fuzz_checks::play_arbitrary(data);
});
