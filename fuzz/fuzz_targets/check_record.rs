//! Fuzz target `check_record`: see `bao_fuzz_checks::check_record` for the properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    bao_fuzz_checks::check_record(data);
});
