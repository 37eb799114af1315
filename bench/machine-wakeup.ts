// How fast this machine wakes an idle process: the round trip of one byte between two processes over a pipe,
// each after 30 ms of idling, as a fan-out's hops are (one process's reply wakes the other after it waited on
// the model). Every hop of both sides pays it a few times, so a ratio measured while it is high says more about
// the machine's state than about either side: on one virtual machine it moved from ~0.1 to ~1.1 ms within an
// hour, and the SDK alone's 16-way overhead with it from 8 to 35 ms (cost-and-prompt-cache.md, forty-third
// session). Printed beside the load average.
import { spawn } from 'node:child_process'
import { pct, sortNum } from './percentile'

const PINGS = 30
const IDLE_MS = 30

/** Median and p90 of the idle round trip, µs; throws when the echoing process could not be run. */
async function idleRoundTrip(): Promise<{ median: number; p90: number }> {
  // A bare Node process that writes back each byte it reads: nothing of the bench loaded in it.
  const child = spawn(process.execPath, ['-e', 'process.stdin.pipe(process.stdout)'], { stdio: ['pipe', 'pipe', 'ignore'] })
  let waiting: { resolve: (us: number) => void; reject: (err: Error) => void; at: bigint } | null = null
  let failed: Error | null = null
  const fail = (err: Error) => {
    failed ??= err
    waiting?.reject(failed)
    waiting = null
  }
  child.on('error', fail)
  child.stdin.on('error', fail)
  child.on('exit', () => fail(new Error('the echoing process ended')))
  child.stdout.on('data', () => {
    const w = waiting
    waiting = null
    w?.resolve(Number(process.hrtime.bigint() - w.at) / 1e3)
  })
  const ping = () =>
    new Promise<number>((resolve, reject) => {
      if (failed) return reject(failed)
      waiting = { resolve, reject, at: process.hrtime.bigint() }
      child.stdin.write('x')
    })
  const times: number[] = []
  try {
    await ping() // the child is up
    for (let i = 0; i < PINGS; i++) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS))
      times.push(await ping())
    }
  } finally {
    child.stdin.end()
    child.kill()
  }
  const sorted = sortNum(times)
  return { median: pct(sorted, 50), p90: pct(sorted, 90) }
}

/** `1,110 µs (p90 2,023)`, or why it was not measured. */
export async function idleRoundTripText(): Promise<string> {
  const us = (x: number) => Math.round(x).toLocaleString('en-US')
  try {
    const r = await idleRoundTrip()
    return `${us(r.median)} µs (p90 ${us(r.p90)})`
  } catch (err) {
    return `not measured (${err instanceof Error ? err.message : String(err)})`
  }
}
