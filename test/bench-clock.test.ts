// The bench's clocks: its figures subtract stamps made in different processes (the bench, the scripted server,
// the page), which must read one clock whatever the machine's wall clock does meanwhile.
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { machineFromPerf, machineNow } from '../bench/machine-clock'
import { hostNow, onPageClock, pageClockOffset } from '../bench/ui-clock'

describe('the bench clocks', () => {
  it('reads the same machine clock in a process started later', () => {
    const before = machineNow()
    const child = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(Number(process.hrtime.bigint()) / 1e6))'], { encoding: 'utf8' }))
    const after = machineNow()
    expect(child).toBeGreaterThanOrEqual(before)
    expect(child).toBeLessThanOrEqual(after)
  })

  it('puts a performance.now() stamp on the machine clock', () => {
    const at = performance.now()
    const onMachine = machineFromPerf(at)
    expect(machineNow() - onMachine).toBeGreaterThanOrEqual(0)
    expect(machineNow() - onMachine).toBeLessThan(50)
  })

  it("lines a page's clock up with the bench's, however far apart their wall clocks were set", async () => {
    // A page whose clock reads 6.7 s ahead (its browser started after the machine's clock was set forward), each
    // round trip taking 1-4 ms with the page's reading anywhere in it.
    const skew = 6_700
    let n = 0
    const delays = [4, 1, 3, 2, 4, 1, 2, 3]
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms))
    const page = {
      evaluate: async () => {
        const d = delays[n++ % delays.length]
        await wait(d / 2)
        const at = hostNow() + skew
        await wait(d / 2)
        return at
      }
    } as unknown as Page
    const { offset, roundTrip } = await pageClockOffset(page, 8)
    expect(Math.abs(offset - skew)).toBeLessThanOrEqual(roundTrip / 2 + 1)
    // A delta sent at host time t and painted 40 ms later on the page's clock reads 40 ms, not 6.74 s.
    const sent = { a: [1_000, 2_000] }
    const painted = [1_000 + skew + 40, 2_000 + skew + 40]
    const onPage = onPageClock(sent, offset).a
    expect(Math.abs(painted[0] - onPage[0] - 40)).toBeLessThanOrEqual(roundTrip / 2 + 1)
    expect(Math.abs(painted[1] - onPage[1] - 40)).toBeLessThanOrEqual(roundTrip / 2 + 1)
  })
})
