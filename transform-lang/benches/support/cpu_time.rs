//! A criterion measurement of the benchmark thread's CPU time, so that "records per second per
//! core" holds on a shared machine where wall time includes time spent descheduled.

use criterion::measurement::{Measurement, ValueFormatter, WallTime};

/// Thread CPU time (`CLOCK_THREAD_CPUTIME_ID`), in nanoseconds.
pub struct CpuTime;

fn now_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY-free alternative does not exist in std; the call only writes `ts`.
    #[allow(unsafe_code)]
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
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
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        // Nanoseconds, formatted like wall time.
        WALL.formatter()
    }
}
