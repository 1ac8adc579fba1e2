//! The generator of the benchmark's input (shared with `examples/parse_input.rs`).

/// A deterministic file of `games` games, each with tags, 60 moves, some comments, NAGs,
/// annotations and a variation.
pub(crate) fn generate(games: usize) -> String {
    let pits = ["A6", "A7", "a5", "a6", "B2", "b3", "A1", "a8"];
    let mut rng = bao_testkit::XorShift32::new(0x9e37_79b9);
    let mut next = move || rng.next_u32();
    let mut out = String::new();
    for g in 0..games {
        out.push_str(&format!(
            "[Event \"Bench {g}\"]\n[Site \"Zanzibar\"]\n[Date \"2026.11.29\"]\n[Round \"{g}\"]\n\
             [South \"Amina\"]\n[North \"Juma\"]\n[Result \"1-0\"]\n[RuleSet \"kiswahili\"]\n\n"
        ));
        let mut line = String::new();
        for m in 1..=30 {
            for (k, side) in [(0, "A"), (1, "a")] {
                let r = next();
                let pit = pits[(r as usize) % pits.len()];
                let pit = if k == 0 {
                    pit.to_uppercase()
                } else {
                    pit.to_lowercase()
                };
                let _ = side;
                if k == 0 {
                    line.push_str(&format!("{m}. "));
                }
                line.push_str(&pit);
                line.push(if r & 1 == 0 { '<' } else { '>' });
                if r & 2 == 0 {
                    line.push('*');
                }
                if r % 29 == 0 {
                    line.push_str(" [xa5:3 A6 xa4:2 A3]");
                }
                if r % 31 == 0 {
                    line.push_str(" $14");
                }
                if r % 37 == 0 {
                    line.push_str(" {a short comment on this move}");
                }
                line.push(' ');
                if line.len() > 70 {
                    out.push_str(line.trim_end());
                    out.push('\n');
                    line.clear();
                }
            }
        }
        line.push_str("1-0\n\n");
        out.push_str(&line);
    }
    out
}
