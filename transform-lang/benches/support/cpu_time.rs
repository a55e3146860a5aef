//! A criterion measurement of the benchmark thread's CPU time, so that "records per second per
//! core" holds on a shared machine where wall time includes time spent descheduled.

use criterion::measurement::{Measurement, ValueFormatter, WallTime};

/// Thread CPU time (`CLOCK_THREAD_CPUTIME_ID`), in nanoseconds.
pub struct CpuTime;

#[expect(clippy::cast_sign_loss, reason = "a clock reading is never negative")]
fn now_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    #[expect(
        unsafe_code,
        reason = "std has no thread CPU clock; `clock_gettime` only writes the `timespec` it is given"
    )]
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &raw mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

static WALL: WallTime = WallTime;

impl Measurement for CpuTime {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        now_ns()
    }
    fn end(&self, start: u64) -> u64 {
        now_ns() - start
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    #[expect(
        clippy::cast_precision_loss,
        reason = "nanoseconds are exact in an f64 up to 2^53 ns, over 100 days"
    )]
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        // Nanoseconds, formatted like wall time.
        WALL.formatter()
    }
}
