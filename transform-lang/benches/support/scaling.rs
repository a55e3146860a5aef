//! The scaling guards' measurement, one file for the template language's, the language
//! server's and the linter's guards (`#[path]` includes it): a dimension runs at a small size
//! and at 8 times that size, each timed as the best of several runs of wall time, and passes
//! while the time ratio stays under 12. Linear work gives a ratio near 8; quadratic work gives
//! near 64, so the threshold leaves room for cache effects and noise while still catching a
//! copy per step.
//!
//! Best-of-N rather than a mean: on a shared machine every disturbance (another build, a
//! descheduled thread) only adds time, so the smallest run is the closest to the work itself.

use std::time::{Duration, Instant};

/// How much larger the second size of a dimension is.
pub const FACTOR: usize = 8;
/// A ratio at or above this fails the guard.
pub const MAX_RATIO: f64 = 12.0;
/// Runs per size at least; the best one counts.
const RUNS: usize = 7;
/// Runs per size at most.
const MAX_RUNS: usize = 40;
/// Runs go on (up to [`MAX_RUNS`]) until both sizes had this much time: on a busy machine the
/// best of a few runs can still be a disturbed one.
const BUDGET: Duration = Duration::from_millis(300);
/// A run of the small size is repeated until it lasts about this long, so that the timer's
/// resolution and the cost of starting a run do not dominate a fast operation.
const MIN_RUN: Duration = Duration::from_millis(5);

/// One measured dimension.
pub struct Measured {
    pub name: &'static str,
    pub small: usize,
    pub small_time: Duration,
    pub large_time: Duration,
}

impl Measured {
    pub fn ratio(&self) -> f64 {
        self.large_time.as_secs_f64() / self.small_time.as_secs_f64().max(1e-9)
    }

    pub fn passes(&self) -> bool {
        self.ratio() < MAX_RATIO
    }
}

/// Measurements of a dimension at most, while its ratio is too high: a busy machine can
/// disturb every run of one size, but hardly three measurements in a row, while work that
/// grows too fast fails every one.
const ATTEMPTS: usize = 3;

/// Times `small` and `large` (the same operation prepared at the two sizes), alternating them
/// so that a slow spell of the machine hits both; measured again while the ratio is too high,
/// up to [`ATTEMPTS`] times, the best ratio kept.
pub fn measure(
    name: &'static str,
    small: usize,
    mut run_small: impl FnMut(),
    mut run_large: impl FnMut(),
) -> Measured {
    let mut best = once(name, small, &mut run_small, &mut run_large);
    for _ in 1..ATTEMPTS {
        if best.passes() {
            break;
        }
        let again = once(name, small, &mut run_small, &mut run_large);
        if again.ratio() < best.ratio() {
            best = again;
        }
    }
    best
}

fn once(
    name: &'static str,
    small: usize,
    mut run_small: impl FnMut(),
    mut run_large: impl FnMut(),
) -> Measured {
    let once = timed(1, &mut run_small);
    let reps = repetitions(once);
    let (mut best_small, mut best_large) = (Duration::MAX, Duration::MAX);
    let (mut spent_small, mut spent_large) = (Duration::ZERO, Duration::ZERO);
    let mut runs = 0;
    while runs < RUNS || (runs < MAX_RUNS && spent_small.min(spent_large) < BUDGET) {
        let small = timed(reps, &mut run_small);
        let large = timed(reps, &mut run_large);
        best_small = best_small.min(small);
        best_large = best_large.min(large);
        spent_small += small;
        spent_large += large;
        runs += 1;
    }
    let per = |d: Duration| d / u32::try_from(reps).unwrap_or(u32::MAX);
    Measured {
        name,
        small,
        small_time: per(best_small),
        large_time: per(best_large),
    }
}

fn repetitions(once: Duration) -> usize {
    let once = once.as_nanos().max(1);
    usize::try_from(MIN_RUN.as_nanos().div_ceil(once))
        .unwrap_or(1)
        .max(1)
}

fn timed(reps: usize, f: &mut impl FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..reps {
        f();
    }
    start.elapsed()
}

/// The dimensions asked for on the command line (arguments not starting with `-`); all of them
/// when none is given. `cargo bench` passes `--bench`, which is not a name.
pub fn selected(name: &str) -> bool {
    let names: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    names.is_empty() || names.iter().any(|n| name.contains(n.as_str()))
}

/// Prints the table row of a dimension (the rows docs/benchmarks.md records).
pub fn print_row(m: &Measured) {
    println!(
        "| {} | {} / {} | {} / {} | {:.1} | {} |",
        m.name,
        m.small,
        m.small * FACTOR,
        shown(m.small_time),
        shown(m.large_time),
        m.ratio(),
        if m.passes() { "ok" } else { "TOO SLOW" }
    );
}

pub fn print_header() {
    println!("| dimension | sizes | best time (small / large) | ratio | verdict |");
    println!("|---|---|---|---|---|");
}

fn shown(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1000.0 {
        format!("{us:.1} µs")
    } else if us < 1e6 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

/// A dimension: its name, its small size, and the input of a given size.
pub type Dimension<I> = (&'static str, usize, fn(usize) -> I);

/// Measures every selected dimension of `dimensions` (name, small size, the input of a size)
/// with `run` on its input, printing a row each; the measurements, for [`finish`].
pub fn measure_all<I>(dimensions: &[Dimension<I>], run: impl Fn(&I)) -> Vec<Measured> {
    let mut all = Vec::new();
    for &(name, small, input) in dimensions {
        if !selected(name) {
            continue;
        }
        let (s, l) = (input(small), input(small * FACTOR));
        let m = measure(name, small, || run(&s), || run(&l));
        print_row(&m);
        all.push(m);
    }
    all
}

/// Exits non-zero when a dimension's ratio reached [`MAX_RATIO`], naming it.
pub fn finish(all: &[Measured]) {
    let failed: Vec<&str> = all.iter().filter(|m| !m.passes()).map(|m| m.name).collect();
    if failed.is_empty() {
        println!("every ratio is under {MAX_RATIO} (sizes {FACTOR} times apart)");
    } else {
        eprintln!(
            "scaling guard failed: the time ratio of {} is {MAX_RATIO} or more for sizes {FACTOR} times apart",
            failed.join(", ")
        );
        std::process::exit(1);
    }
}
