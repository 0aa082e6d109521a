//! What Linux says of a running process (/proc): the benchmarks that run
//! function binaries read their CPU time and memory from here.

/// The CPU time the threads of a process have had, in ms, or None: the
/// sum of their schedstat run times (nanoseconds).
pub fn cpu_ms(pid: u32) -> Option<f64> {
    let mut total = 0u64;
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).ok()? {
        let schedstat = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        total += schedstat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(total as f64 / 1e6)
}

/// A memory field of /proc/PID/status (`VmRSS`, `VmHWM` …), in MB, or
/// None.
pub fn memory_mb(pid: u32, field: &str) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| {
        l.strip_prefix(field)
            .is_some_and(|rest| rest.starts_with(':'))
    })?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}
