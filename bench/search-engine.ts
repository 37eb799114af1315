// Which engine Glob and Grep use by tree size (tools/search-engine.ts): listing a tree in-process against
// spawning `rg --files`, alone and sixteen at once (a fan-out's agents searching together), at sizes around
// the threshold. Prints figures; never fails on time.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { listFiles } from '../src/main/runtime/tools/list-files'
import { findRipgrep } from '../src/main/runtime/tools/ripgrep'
import { IN_PROCESS_SEARCH_UP_TO } from '../src/main/runtime/tools/search-engine'

function tree(files: number): string {
  const root = mkdtempSync(join(tmpdir(), 'fanout-bench-tree-'))
  writeFileSync(join(root, '.gitignore'), 'node_modules/\n*.log\n')
  const dirs = Math.max(1, Math.floor(files / 20))
  for (let i = 0; i < files; i++) {
    const d = join(root, `d${i % dirs}`)
    mkdirSync(d, { recursive: true })
    writeFileSync(join(d, `f${i}.ts`), 'x')
  }
  return root
}

async function median(f: () => Promise<unknown>, reps: number): Promise<number> {
  const t: number[] = []
  for (let i = 0; i < reps; i++) {
    const s = performance.now()
    await f()
    t.push(performance.now() - s)
  }
  return t.sort((a, b) => a - b)[reps >> 1]
}

export async function benchSearchEngine(): Promise<void> {
  const rg = findRipgrep()
  console.log(
    `\nGlob/Grep engine by tree size (in-process up to ${IN_PROCESS_SEARCH_UP_TO.toLocaleString('en-US')} entries, rg above; load average ${loadavg()[0].toFixed(2)})`
  )
  if (!rg) return console.log('  rg is not installed here: every search is in-process.')
  console.log('  files    in-process   rg --files   16 at once: in-process   rg --files')
  const f = (ms: number) => `${ms.toFixed(1).padStart(7)} ms`
  for (const n of [20, 1000, 3000, 10000]) {
    const root = tree(n)
    try {
      // Forced engines: no rg, or rg for every tree (0 entries in-process).
      const js = () => listFiles(root, null)
      const withRg = () => listFiles(root, rg, undefined, 0)
      const sixteen = (g: () => Promise<unknown>) => () => Promise.all(Array.from({ length: 16 }, g))
      console.log(
        `  ${String(n).padStart(5)}  ${f(await median(js, 7))}   ${f(await median(withRg, 7))}       ${f(await median(sixteen(js), 3))}    ${f(await median(sixteen(withRg), 3))}`
      )
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }
}
