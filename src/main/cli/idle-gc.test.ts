// Collecting at idle moments: the young generation is collected while the loop waits (a forced collection, as
// V8's gc observer reports it), never while it works; it leaves no `gc` in the page's globals, costs the next
// start nothing (a code cache made after it is taken), and a person who exposed `gc` themselves is left alone.
import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { childModule } from '../../../test/support/child-module'

const dir = mkdtempSync(join(tmpdir(), 'fanout-idle-gc-'))
const moduleFile = childModule(join(__dirname, 'idle-gc.ts'), dir)

interface Seen {
  /** Forced young-generation collections while the loop was idle, and while it was busy. */
  idle: number
  busy: number
  globalGc: string
}

/**
 * In a fresh process: starts collecting, makes garbage and waits (idle), then keeps the loop busy making
 * garbage for as long; reports the forced collections seen in each phase. `cache`: a code cache is written after.
 */
function run(execArgv: string[] = [], cache?: string): Seen {
  const script = `
    const { PerformanceObserver, constants } = require('node:perf_hooks')
    const t = require(${JSON.stringify(moduleFile)})
    const seen = { idle: 0, switch: 0, busy: 0, after: 0 }
    // By when each collection began: the observer hears of them later.
    let switchAt = Infinity
    let busyAt = Infinity
    let afterAt = Infinity
    const phase = (t) => (t >= afterAt ? 'after' : t >= busyAt ? 'busy' : t >= switchAt ? 'switch' : 'idle')
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MINOR && e.detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) seen[phase(e.startTime)]++
    }).observe({ entryTypes: ['gc'] })
    const vm = require('node:vm')
    const s = new vm.Script('function step(o) { return o.a + o.b }\\nfor (let i = 0; i < 50; i++) step({ a: i, b: 1 })')
    s.runInThisContext()
    const stop = t.collectWhileIdle()
    // Idle: a little garbage now and then (a reply's events), the loop waiting in between.
    const trickle = setInterval(() => {
      let junk = []
      for (let i = 0; i < 8000; i++) junk.push({ i, s: 'x' + i })
      junk = null
    }, 60)
    setTimeout(() => {
      clearInterval(trickle)
      // Busy from here; what a tick saw of the idle time before is not counted.
      switchAt = performance.now()
      busyAt = switchAt + 60
      const until = Date.now() + 400
      const spin = () => {
        const junk = []
        for (let i = 0; i < 20000; i++) junk.push({ i })
        if (Date.now() < until) setImmediate(spin)
        else {
          // Idle again: collections may come.
          afterAt = performance.now()
          setTimeout(() => {
            stop()
            ${cache ? `require('node:fs').writeFileSync(${JSON.stringify(cache)}, s.createCachedData())` : ''}
            process.stdout.write(JSON.stringify({ ...seen, globalGc: typeof globalThis.gc }))
          }, 50)
        }
      }
      spin()
    }, 600)`
  const r = spawnSync(process.execPath, [...execArgv, '-e', script], { encoding: 'utf8' })
  expect(r.status, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as Seen
}

describe('collecting garbage while the run waits', () => {
  it('collects the young generation when the loop is idle, never while it is busy', () => {
    const seen = run()
    expect(seen.idle).toBeGreaterThanOrEqual(1)
    expect(seen.busy).toBe(0)
    expect(seen.globalGc, 'no gc function is left in the globals').toBe('undefined')
  })

  it('leaves a code cache the next plain start takes', () => {
    const file = join(dir, 'after.bin')
    run([], file)
    const check = `
      const vm = require('node:vm')
      const s = new vm.Script('function step(o) { return o.a + o.b }\\nfor (let i = 0; i < 50; i++) step({ a: i, b: 1 })', { cachedData: require('node:fs').readFileSync(${JSON.stringify(file)}) })
      process.stdout.write(String(!s.cachedDataRejected))`
    const r = spawnSync(process.execPath, ['-e', check], { encoding: 'utf8' })
    expect(r.stdout).toBe('true')
  })

  it('does nothing for a person who exposed gc on the command line', () => {
    const seen = run(['--expose-gc'])
    expect(seen.idle + seen.busy).toBe(0)
    expect(seen.globalGc).toBe('function')
  })
})
