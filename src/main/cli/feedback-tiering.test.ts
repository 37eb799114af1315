// The switch to eager feedback must never cost a start its code cache: a cache made after the switch and
// the switch back is taken by the next plain `node`, one made without the switch back is refused (which is
// what the launcher's feedbackAsAtStart prevents), and a flag chosen on Node's command line is left alone.
import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { childModule } from '../../../test/support/child-module'

const dir = mkdtempSync(join(tmpdir(), 'fanout-feedback-'))
const moduleFile = childModule(join(__dirname, 'feedback-tiering.ts'), dir)

const SOURCE = 'function step(o) { return o.a + o.b }\nfor (let i = 0; i < 50; i++) step({ a: i, b: 1 })\n'

/** In a fresh process: switch (or not), run the script, switch back (or not), and write its code cache. */
function makeCache(name: string, steps: { on: boolean; back: boolean }, execArgv: string[] = []): { file: string; switched: boolean[] } {
  const file = join(dir, `${name}.bin`)
  const script = `
    const vm = require('node:vm'), fs = require('node:fs')
    const t = require(${JSON.stringify(moduleFile)})
    const switched = []
    if (${steps.on}) switched.push(t.feedbackFromFirstCall())
    const s = new vm.Script(${JSON.stringify(SOURCE)})
    s.runInThisContext()
    if (${steps.back}) switched.push(t.feedbackAsAtStart())
    fs.writeFileSync(${JSON.stringify(file)}, s.createCachedData())
    process.stdout.write(JSON.stringify(switched))`
  const r = spawnSync(process.execPath, [...execArgv, '-e', script], { encoding: 'utf8' })
  expect(r.status, r.stderr).toBe(0)
  return { file, switched: JSON.parse(r.stdout) }
}

/** Whether a fresh process started as `execArgv` takes the cache. */
function taken(file: string, execArgv: string[] = []): boolean {
  const script = `
    const vm = require('node:vm')
    const s = new vm.Script(${JSON.stringify(SOURCE)}, { cachedData: require('node:fs').readFileSync(${JSON.stringify(file)}) })
    process.stdout.write(String(!s.cachedDataRejected))`
  const r = spawnSync(process.execPath, [...execArgv, '-e', script], { encoding: 'utf8' })
  expect(r.status, r.stderr).toBe(0)
  return r.stdout === 'true'
}

describe('eager feedback after the start', () => {
  it('leaves the code cache one the next start takes, once switched back', () => {
    const plain = makeCache('plain', { on: false, back: false })
    const switchedBack = makeCache('back', { on: true, back: true })
    const notBack = makeCache('not-back', { on: true, back: false })
    expect(switchedBack.switched).toEqual([true, true])
    expect(taken(plain.file)).toBe(true)
    expect(taken(switchedBack.file)).toBe(true)
    // The control: without the switch back, the next start would compile the whole bundle again.
    expect(taken(notBack.file)).toBe(false)
  })

  it("keeps a person's own choice of the flag", () => {
    for (const flag of ['--no-lazy-feedback-allocation', '--no_lazy_feedback_allocation']) {
      const made = makeCache(`chosen${flag.length}`, { on: true, back: true }, [flag])
      expect(made.switched).toEqual([false, false])
      expect(taken(made.file, [flag])).toBe(true)
      expect(taken(made.file)).toBe(false)
    }
  })
})
