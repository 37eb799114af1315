// How fast this machine wakes an idle process: the round trip of one byte between two processes over a pipe,
// each after 30 ms of idling, as a fan-out's hops are (one process's reply wakes the other after it waited on
// the model). Every hop of both sides pays it a few times, so a ratio measured while it is high says more about
// the machine's state than about either side: on one virtual machine it moved from ~0.1 to ~1.1 ms within an
// hour, and the SDK alone's 16-way overhead with it from 8 to 35 ms (cost-and-prompt-cache.md, forty-third
// session). Printed beside the load average.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { pct, sortNum } from './percentile'

const PINGS = 30
const IDLE_MS = 30

/** The child's side (`index.mjs --echo`): each byte read is written back. */
export function echo(): void {
  process.stdin.on('data', (d) => process.stdout.write(d))
  process.stdin.on('end', () => process.exit(0))
}

/** Median and p90 of the idle round trip, µs; null when the child could not be run. */
export async function idleRoundTrip(root: string): Promise<{ median: number; p90: number } | null> {
  const child = spawn(process.execPath, [join(root, 'out/bench/index.mjs'), '--echo'], { stdio: ['pipe', 'pipe', 'ignore'] })
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
  const times: number[] = []
  let failed: Error | null = null
  let waiting: { resolve: (us: number) => void; reject: (err: Error) => void; at: bigint } | null = null
  const fail = (err: Error) => {
    failed = err
    waiting?.reject(err)
    waiting = null
  }
  child.on('error', fail)
  child.stdin.on('error', fail)
  child.on('exit', () => fail(new Error('the echo process ended')))
  child.stdout.on('data', () => {
    const w = waiting
    waiting = null
    w?.resolve(Number(process.hrtime.bigint() - w.at) / 1e3)
  })
  try {
    const ping = () =>
      new Promise<number>((resolve, reject) => {
        if (failed) return reject(failed)
        waiting = { resolve, reject, at: process.hrtime.bigint() }
        child.stdin.write('x')
      })
    await ping() // the child is up
    for (let i = 0; i < PINGS; i++) {
      await sleep(IDLE_MS)
      times.push(await ping())
    }
  } catch {
    return null
  } finally {
    child.stdin.end()
    child.kill()
  }
  const sorted = sortNum(times)
  return { median: pct(sorted, 50), p90: pct(sorted, 90) }
}

/** `idle round trip 1,110 µs (p90 2,023)`, or a word that it could not be measured. */
export async function idleRoundTripText(root: string): Promise<string> {
  const r = await idleRoundTrip(root)
  const us = (x: number) => Math.round(x).toLocaleString('en-US')
  return r ? `idle round trip between two processes ${us(r.median)} µs (p90 ${us(r.p90)})` : 'idle round trip not measured'
}
