// A monotonic clock in milliseconds, for durations. Not `performance.now()`: on Node 20 the first touch of the
// global `performance` loads perf_hooks and eight more of Node's modules (~1.5 ms), which `fanout run` did
// before its first model request only to time it. Only differences of two readings mean anything.
export function monotonicMs(): number {
  const [s, ns] = process.hrtime()
  return s * 1e3 + ns / 1e6
}
