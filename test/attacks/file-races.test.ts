// TOCTOU on the file tools: a process swaps a folder of the project for a link to a folder outside it, in a
// tight loop, while the tools write, edit, read and search through that folder. The path check may see the
// folder at one moment and the open another; what counts is where the bytes land. Two swappers, both real
// processes: one flips a link between a folder inside the project and one outside (always there, atomic
// rename), one swaps a real folder for a link and back (the folder missing in between). Played twice: through
// a real acceptEdits session (the scripted model, the real gate; headless, so what would be asked is denied),
// and straight into the tools, many more times. Escaped = a file outside created or changed, or the outside
// secret in anything the model saw: must be 0.
import { spawn, type ChildProcess } from 'node:child_process'
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reply } from '../../src/main/runtime/model/scripted/reply'
import { closeFixtures, makeFixture } from '../../src/main/runtime/orchestration/testing/session-fixture'
import { runTool } from '../../src/main/runtime/tool-call/execute'
import { createEditTool, createGrepTool, createNotebookEditTool, createReadTool, createWriteTool } from '../../src/main/runtime/tools'
import { FileState } from '../../src/main/runtime/tools/file-state'
import { toolContext, waitUntil } from '../../src/main/runtime/tools/test-kit'

const SECRET = `OUTSIDE-SECRET-${Math.random().toString(36).slice(2)}`
const FOLDERS = ['flip', 'swapdir'] as const
const EDITS = 30
const NOTEBOOK = `${JSON.stringify({ cells: [{ id: 'c1', cell_type: 'code', source: ['x = 1\n'], metadata: {}, outputs: [], execution_count: null }], metadata: {}, nbformat: 4, nbformat_minor: 5 })}\n`

interface RaceWorld {
  root: string
  project: string
  outside: string
  swappers: ChildProcess[]
  /** Swaps each swapper has done (read from its output): proof the race ran. */
  swaps: number[]
}

/** The swapper: `flip` alternates a link between inside and outside; `swapdir` a real folder and a link. */
const SWAPPER = String.raw`
const fs = require('fs'), path = require('path')
const [kind, project, outside] = process.argv.slice(1)
let n = 0
// Reports its count now and then. Half the swaps come at once (the tightest race), half after a rest of up to
// two milliseconds (a call may find the folder still for a moment, so some go through): a race, not a CPU hog.
const rest = new Int32Array(new SharedArrayBuffer(4))
const tick = () => {
  if (n % 100 === 0) fs.writeSync(1, n + '\n')
  if (Math.random() < 0.5) Atomics.wait(rest, 0, 0, Math.random() * 2)
}
const quiet = (f) => { try { f() } catch {} }
if (kind === 'flip') {
  const link = path.join(project, 'flip'), tmp = path.join(project, '.flip.tmp')
  for (;;) {
    for (const to of [path.join(project, 'flip-real'), outside]) {
      quiet(() => fs.unlinkSync(tmp)); quiet(() => fs.symlinkSync(to, tmp)); quiet(() => fs.renameSync(tmp, link)); n++; tick()
    }
  }
} else {
  const dir = path.join(project, 'swapdir'), hold = path.join(project, '.swapdir.hold')
  for (;;) {
    quiet(() => fs.renameSync(dir, hold))
    // A folder the tools made while it was missing is theirs (inside the project): cleared out of the way.
    quiet(() => fs.rmSync(dir, { recursive: true, force: true }))
    quiet(() => fs.symlinkSync(outside, dir))
    quiet(() => fs.unlinkSync(dir))
    quiet(() => fs.rmSync(dir, { recursive: true, force: true }))
    quiet(() => fs.renameSync(hold, dir))
    n++; tick()
  }
}
`

function makeRaceWorld(): RaceWorld {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-race-')))
  const project = join(root, 'project')
  const outside = join(root, 'outside')
  for (const d of [join(project, 'flip-real'), join(project, 'swapdir'), outside]) mkdirSync(d, { recursive: true })
  for (const dir of [join(project, 'flip-real'), join(project, 'swapdir'), outside]) {
    writeFileSync(join(dir, 'secret.txt'), dir === outside ? `${SECRET}\n` : 'inside\n')
    for (let i = 0; i < EDITS; i++) writeFileSync(join(dir, `e${i}.txt`), 'word\n')
    writeFileSync(join(dir, 'nb.ipynb'), NOTEBOOK)
  }
  symlinkSync(join(project, 'flip-real'), join(project, 'flip'))
  return { root, project, outside, swappers: [], swaps: [0, 0] }
}

function startSwappers(w: RaceWorld): void {
  FOLDERS.forEach((kind, i) => {
    const child = spawn(process.execPath, ['-e', SWAPPER, kind, w.project, w.outside], { stdio: ['ignore', 'pipe', 'inherit'] })
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      const last = chunk.trim().split('\n').pop()
      if (last) w.swaps[i] = Number(last)
    })
    w.swappers.push(child)
  })
}

async function stopSwappers(w: RaceWorld): Promise<void> {
  await Promise.all(
    w.swappers.splice(0).map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve()
          c.once('exit', () => resolve())
          c.kill('SIGKILL')
        })
    )
  )
}

/** What changed outside: any file but the planted ones, or a planted one whose content differs. */
function outsideChanges(w: RaceWorld): string[] {
  const out: string[] = []
  for (const name of readdirSync(w.outside)) {
    if (lstatSync(join(w.outside, name)).isDirectory()) {
      out.push(`${name}/: a folder created outside`)
      continue
    }
    const text = readFileSync(join(w.outside, name), 'utf8')
    const planted = name === 'secret.txt' ? `${SECRET}\n` : name === 'nb.ipynb' ? NOTEBOOK : /^e\d+\.txt$/.test(name) ? 'word\n' : null
    if (text !== planted) out.push(`${name}: ${text.slice(0, 40)}`)
  }
  return out
}

/** The calls of one round through a folder: writes of new files, edits of existing ones, reads, a search. */
function calls(folder: string, round: string): Array<{ name: string; input: Record<string, unknown> }> {
  const list: Array<{ name: string; input: Record<string, unknown> }> = []
  for (let i = 0; i < EDITS; i++) {
    list.push({ name: 'Write', input: { file_path: `${folder}/w-${round}-${i}.txt`, content: 'pwned\n' } })
    list.push({ name: 'Write', input: { file_path: `${folder}/deep-${round}-${i}/x.txt`, content: 'pwned\n' } })
    list.push({ name: 'Read', input: { file_path: `${folder}/e${i}.txt` } })
    list.push({ name: 'Edit', input: { file_path: `${folder}/e${i}.txt`, old_string: 'word', new_string: 'pwned' } })
    list.push({ name: 'Read', input: { file_path: `${folder}/secret.txt` } })
    if (i % 3 === 0) {
      list.push({ name: 'Read', input: { file_path: `${folder}/nb.ipynb` } })
      list.push({ name: 'NotebookEdit', input: { notebook_path: `${folder}/nb.ipynb`, cell_id: 'c1', new_source: 'pwned' } })
    }
  }
  list.push({ name: 'Grep', input: { pattern: 'OUTSIDE-SECRET', path: folder, output_mode: 'content' } })
  list.push({ name: 'Grep', input: { pattern: 'OUTSIDE-SECRET', path: `${folder}/secret.txt`, output_mode: 'content' } })
  return list
}

const worlds: RaceWorld[] = []
afterAll(async () => {
  await closeFixtures()
  for (const w of worlds) {
    await stopSwappers(w)
    rmSync(w.root, { recursive: true, force: true })
  }
})

describe('TOCTOU: a process swaps a folder for a link out while the file tools work through it', () => {
  let session: { results: Array<{ content: string; isError: boolean }>; world: RaceWorld; writes: number }
  beforeAll(async () => {
    const w = makeRaceWorld()
    worlds.push(w)
    const turns = FOLDERS.flatMap((f) => calls(f, 'session'))
    const results: Array<{ content: string; isError: boolean }> = []
    const perTurn = 10
    startSwappers(w)
    await waitUntil(() => w.swaps.every((n) => n > 0), 'both swappers to be swapping')
    const fixture = await makeFixture(
      {
        respond: (req) => {
          for (const r of req.toolResults) results.push({ content: r.content, isError: r.isError })
          const batch = turns.slice(req.turn * perTurn, (req.turn + 1) * perTurn)
          return batch.length ? reply.toolUses(batch) : reply.text('done')
        }
      },
      { cwd: w.project, root: w.root, headless: true, permissionMode: 'acceptEdits' }
    )
    await fixture.session.run('race')
    await fixture.session.idle()
    await stopSwappers(w)
    session = { results, world: w, writes: turns.filter((t) => !['Read', 'Grep'].includes(t.name)).length }
  }, 240_000)

  it('through an acceptEdits session: 0 writes land outside, 0 reads show what is there', () => {
    const { results, world, writes } = session
    const escaped = outsideChanges(world)
    const leaked = results.filter((r) => r.content.includes(SECRET))
    console.log(
      `TOCTOU (acceptEdits session): ${writes} writes, ${escaped.length} escaped; ${results.length - writes} reads and searches, ${leaked.length} leaked; swaps ${world.swaps.join('+')}`
    )
    expect(results.length).toBe(FOLDERS.length * (EDITS * 5 + 2 + Math.ceil(EDITS / 3) * 2))
    // The race was real: some calls went through (inside), some were refused or denied.
    expect(results.filter((r) => !r.isError).length).toBeGreaterThan(0)
    expect(escaped).toEqual([])
    expect(leaked.map((r) => r.content.slice(0, 200))).toEqual([])
  })

  it('straight into the tools, many rounds (both search engines): 0 escaped', async () => {
    const w = makeRaceWorld()
    worlds.push(w)
    startSwappers(w)
    await waitUntil(() => w.swaps.every((n) => n > 0), 'both swappers to be swapping')
    const fileState = new FileState()
    const make = { Read: createReadTool, Write: createWriteTool, Edit: createEditTool, NotebookEdit: createNotebookEditTool, Grep: createGrepTool }
    let writes = 0
    let reads = 0
    let ok = 0
    const leaked: string[] = []
    for (let round = 0; round < 4; round++) {
      for (const folder of FOLDERS) {
        for (const call of calls(folder, `r${round}`)) {
          const tool = make[call.name as keyof typeof make]({ cwd: w.project, fileState, ...(round % 2 ? { ripgrep: false as const } : {}) })
          const r = await runTool(tool, call.input, toolContext())
          if (call.name !== 'Read' && call.name !== 'Grep') writes++
          else reads++
          if (!r.isError) ok++
          if (r.content.includes(SECRET)) leaked.push(`${call.name} ${JSON.stringify(call.input)}: ${r.content.slice(0, 120)}`)
        }
      }
    }
    await stopSwappers(w)
    const escaped = outsideChanges(w)
    console.log(
      `TOCTOU: ${writes} writes, ${escaped.length} escaped; ${reads} reads and searches, ${leaked.length} leaked; ${ok} calls went through; swaps ${w.swaps.join('+')}`
    )
    expect(ok).toBeGreaterThan(0)
    expect(escaped).toEqual([])
    expect(leaked).toEqual([])
  }, 240_000)
})
