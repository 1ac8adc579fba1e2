//! A count of the lexer's and parser's steps, for the test that their work grows no faster
//! than their input (`linear_on_hostile_shapes` in `reader.rs`): each scanning loop adds the
//! bytes it looks at, each token read adds its length, each text built for a message or a
//! comment adds its length. In the crate's unit tests the count is kept per thread; in any
//! other build [`step`] is nothing.

/// Adds `n` steps (counted in the crate's unit tests only).
#[inline(always)]
pub(crate) fn step(n: usize) {
    #[cfg(test)]
    STEPS.with(|s| s.set(s.get() + n as u64));
    #[cfg(not(test))]
    let _ = n;
}

#[cfg(test)]
thread_local! {
    /// The steps of this thread.
    static STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Runs `f` and returns the steps it took on this thread.
#[cfg(test)]
pub(crate) fn steps_of(f: impl FnOnce()) -> u64 {
    let before = STEPS.with(std::cell::Cell::get);
    f();
    STEPS.with(std::cell::Cell::get) - before
}

#[cfg(test)]
mod tests {
    use super::steps_of;
    use crate::reader::parse_record_with;
    use crate::Limits;

    /// A hostile shape of input: its name, and the text made at a size of about `n` bytes.
    type Shape = (&'static str, fn(usize) -> String);

    /// Hostile shapes of input.
    fn shapes() -> Vec<Shape> {
        vec![
            ("long pit-letter token", |n| {
                format!("[Event \"x\"]\n\n{}\n", "A".repeat(n))
            }),
            ("long row letter and digits", |n| {
                format!("[Event \"x\"]\n\nA{} *\n", "9".repeat(n))
            }),
            ("long digit word", |n| {
                format!("1. A6<* {} *\n", "7".repeat(n))
            }),
            ("long comment", |n| {
                format!("1. A6<* {{{}}} *\n", "x".repeat(n))
            }),
            ("comment of carriage returns", |n| {
                format!("1. A6<* {{{}\n}} *\n", "\r".repeat(n))
            }),
            ("unclosed comment over many lines", |n| {
                format!("1. A6<* {{{}", "x y\n".repeat(n / 4))
            }),
            ("deep variations", |n| {
                format!(
                    "1. A6<* {}{} *\n",
                    "(a6>* ".repeat(n / 6),
                    ")".repeat(n / 6)
                )
            }),
            ("many NAGs", |n| {
                format!("1. A6<* {}*\n", "$1 ".repeat(n / 3))
            }),
            ("long NAG", |n| format!("1. A6<* ${} *\n", "1".repeat(n))),
            ("many tags", |n| {
                let mut text: String = (0..n / 12).map(|i| format!("[T{i} \"v\"]\n")).collect();
                text.push_str("\n*\n");
                text
            }),
            ("long tag value", |n| {
                format!("[Event \"{}\"]\n\n*\n", "x".repeat(n))
            }),
            ("unclosed tag value", |n| {
                format!("[Event \"{}\n\n*\n", "x ".repeat(n / 2))
            }),
            ("many games on one line", |n| {
                "1. A6<* a6>* * ".repeat(n / 15)
            }),
            ("results in a variation", |n| {
                format!("1. A6<* ({}\n", "* ".repeat(n / 2))
            }),
            ("signs apart from their moves", |n| {
                format!("1. A4 {}*\n", "> ".repeat(n / 2))
            }),
            ("long annotation", |n| {
                format!("1. A6<* [{}] *\n", "A1 ".repeat(n / 3))
            }),
            ("long markup comment", |n| {
                format!("1. A6<* {{[%csl {}]}} *\n", "GA1,".repeat(n / 4))
            }),
            ("words that are no moves", |n| {
                format!("{} *\n", "x ".repeat(n / 2))
            }),
        ]
    }

    /// Every shape at two sizes: doubling the input at most doubles the steps (with a
    /// margin for what does not grow), and the steps stay within a small multiple of the
    /// input. A path that reads a token again per byte (a quadratic one) fails here.
    #[test]
    fn linear_on_hostile_shapes() {
        // Games as long as the shapes need (the defaults would cut them short and hide
        // the growth).
        let limits = Limits {
            max_comment_bytes: usize::MAX,
            max_game_bytes: usize::MAX,
            ..Limits::DEFAULT
        };
        let n = 20_000;
        for (name, make) in shapes() {
            let (small, large) = (make(n), make(2 * n));
            let steps = |text: &str| {
                steps_of(|| {
                    let parsed = parse_record_with(text, &limits);
                    std::hint::black_box(parsed);
                })
            };
            let (a, b) = (steps(&small), steps(&large));
            assert!(a > 0, "{name}: no steps counted");
            assert!(
                b * 10 <= a * 22 + 10_000,
                "{name}: {a} steps for {} bytes, {b} for {}: faster than the input",
                small.len(),
                large.len()
            );
            assert!(
                b <= 16 * large.len() as u64,
                "{name}: {b} steps for {} bytes",
                large.len()
            );
        }
    }

    /// Every message of every shape is short, whatever the size; the long token's
    /// diagnostic gives where it starts and how long it is (its span) and its length in
    /// the message.
    #[test]
    fn messages_stay_short() {
        for (name, make) in shapes() {
            let parsed = parse_record_with(&make(100_000), &Limits::DEFAULT);
            for e in &parsed.errors {
                assert!(
                    e.message.len() <= 160,
                    "{name}: {} bytes: {}",
                    e.message.len(),
                    e.message
                );
            }
        }
        let text = format!("[Event \"x\"]\n\n{}\n", "A".repeat(1_000_000));
        let parsed = parse_record_with(&text, &Limits::DEFAULT);
        let e = &parsed.errors[0];
        assert_eq!((e.span.start, e.span.len()), (13, 1_000_000));
        assert!(
            e.message
                .starts_with(&format!("`{}…` (1000000 bytes): ", "A".repeat(40))),
            "{}",
            e.message
        );
    }
}
