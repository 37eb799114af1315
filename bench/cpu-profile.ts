// Optional profiling for the UI benchmark (BENCH_UI_PROFILE=dir): records the page's CPU profile over a
// measured phase through CDP, saves it (open it in Chromium DevTools' Performance panel), and prints
// where the main thread spent its time, by function, so a missed target comes with its reason.
import { mkdirSync, writeFileSync } from 'node:fs'
import type { CDPSession, Page } from 'playwright-core'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
  endTime: number
}

export interface Profiler {
  /** Saves the profile; resolves with lines to print (none when profiling is off). */
  stop(label: string): Promise<string[]>
}

export async function startProfile(page: Page, dir: string | undefined): Promise<Profiler> {
  if (!dir) return { stop: async () => [] }
  const cdp: CDPSession = await page.context().newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
  await cdp.send('Profiler.start')
  return {
    async stop(label) {
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile }
      await cdp.detach()
      const file = `${dir}/ui-${label}.cpuprofile`
      mkdirSync(dir, { recursive: true })
      writeFileSync(file, JSON.stringify(profile))
      return [`  CPU profile         ${file}; main thread by self time:`, ...summarize(profile, 14).map((l) => `    ${l}`)]
    }
  }
}

/** Self time per function (name + file:line), largest first, with its share of the profile. */
export function summarize(profile: Profile, top: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map<string, number>()
  let total = 0
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0
    const f = byId.get(id)!.callFrame
    const file = f.url ? `${f.url.split('/').pop()}:${f.lineNumber + 1}:${f.columnNumber + 1}` : ''
    const key = `${f.functionName || '(anonymous)'} ${file}`.trim()
    self.set(key, (self.get(key) ?? 0) + dt)
    total += dt
  })
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, us]) => `${(us / 1000).toFixed(0).padStart(6)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`)
}
