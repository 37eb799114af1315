// What the file tools do with files that are not plain files, and with a disk that fills up: a FIFO, a socket
// or a device is refused at once with a clear error (never waited on: four FIFO reads at once used to stall
// every file operation of the process), and a write that fails leaves the old file byte for byte, no temp
// file beside it. Real files, a real FIFO and socket, and a real tmpfs (root only) for the full disk.
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runTool } from '../tool-call/execute'
import { createEditTool } from './edit'
import { FileState } from './file-state'
import { createGlobTool } from './glob'
import { createGrepTool } from './grep'
import { createNotebookEditTool } from './notebook-edit'
import { createReadTool } from './read'
import { toolContext } from './test-kit'
import { createWriteTool } from './write'
import { CAN_MOUNT, CANNOT_MOUNT_REASON, mountSmallDisk } from '../store/testing/full-disk'

type ToolName = 'Read' | 'Write' | 'Edit' | 'NotebookEdit' | 'Grep' | 'Glob'
const MAKERS = {
  Read: createReadTool,
  Write: createWriteTool,
  Edit: createEditTool,
  NotebookEdit: createNotebookEditTool,
  Grep: createGrepTool,
  Glob: createGlobTool
}

function tools(cwd: string, opts: { ripgrep?: false; inProcessSearchUpTo?: number } = {}) {
  const fileState = new FileState()
  return (tool: ToolName, input: Record<string, unknown>) => runTool(MAKERS[tool]({ cwd, fileState, ...opts }), input, toolContext())
}

describe('FIFOs, sockets and devices', () => {
  let root: string
  let dir: string
  let server: Server
  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-fifo-')))
    dir = join(root, 'project')
    mkdirSync(join(dir, 'src'), { recursive: true })
    writeFileSync(join(dir, 'src/a.txt'), 'needle here\n')
    writeFileSync(join(dir, 'plain.txt'), 'plain text\n')
    execFileSync('mkfifo', [join(dir, 'pipe'), join(dir, 'src/pipe.txt'), join(dir, 'pipe.ipynb')])
    symlinkSync('/dev/zero', join(dir, 'zero'))
    symlinkSync('/dev/stdin', join(dir, 'stdin'))
    symlinkSync('pipe', join(dir, 'to-pipe'))
    server = createServer()
    await new Promise<void>((resolve) => server.listen(join(dir, 'sock'), resolve))
  })
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
    rmSync(root, { recursive: true, force: true })
  })

  it('Read refuses each at once, four FIFO reads at once included, and a normal Read still works after', async () => {
    const run = tools(dir)
    const fifos = await Promise.all(['pipe', 'src/pipe.txt', 'to-pipe', 'pipe'].map((file_path) => run('Read', { file_path })))
    for (const r of fifos) {
      expect(r.isError).toBe(true)
      expect(r.content).toMatch(/FIFO \(named pipe\), not a regular file/)
    }
    const sock = await run('Read', { file_path: 'sock' })
    expect(sock.content).toMatch(/a socket, not a regular file/)
    // Devices named directly, and links to them (inside the project, leading out: refused as such).
    expect((await run('Read', { file_path: '/dev/zero' })).content).toMatch(/a device, not a regular file/)
    expect((await run('Read', { file_path: '/dev/null', offset: 1, limit: 5 })).content).toMatch(/a device, not a regular file/)
    for (const link of ['zero', 'stdin']) {
      const r = await run('Read', { file_path: link })
      expect(r.isError, link).toBe(true)
      expect(r.content, link).toMatch(/not a regular file|leads outside/)
    }
    const after = await run('Read', { file_path: 'plain.txt' })
    expect(after.isError).toBeFalsy()
    expect(after.content).toContain('plain text')
  })

  it('Write, Edit and NotebookEdit refuse them and leave them as they are', async () => {
    const run = tools(dir)
    expect((await run('Write', { file_path: 'pipe', content: 'x' })).content).toMatch(/FIFO \(named pipe\), not a regular file/)
    expect((await run('Edit', { file_path: 'pipe', old_string: 'a', new_string: 'b' })).content).toMatch(/FIFO/)
    expect((await run('Edit', { file_path: 'sock', old_string: '', new_string: 'b' })).content).toMatch(/socket/)
    expect((await run('NotebookEdit', { notebook_path: 'pipe.ipynb', cell_id: '0', new_source: 'x' })).content).toMatch(/FIFO/)
    expect((await run('Write', { file_path: '/dev/null', content: 'x' })).content).toMatch(/device/)
    expect(statSync(join(dir, 'pipe')).isFIFO()).toBe(true)
    expect(statSync(join(dir, 'sock')).isSocket()).toBe(true)
  })

  for (const engine of ['rg', 'in-process'] as const) {
    it(`Grep and Glob (${engine}) skip them in a tree and refuse one named as the path, without blocking`, async () => {
      const run = tools(dir, engine === 'rg' ? { inProcessSearchUpTo: 0 } : { ripgrep: false })
      const tree = await run('Grep', { pattern: 'needle|plain', output_mode: 'content' })
      expect(tree.isError).toBeFalsy()
      expect(tree.content).toContain('src/a.txt:1:needle here')
      expect(tree.content).toContain('plain.txt:1:plain text')
      for (const path of ['pipe', 'src/pipe.txt', 'sock']) {
        const r = await run('Grep', { pattern: 'x', path })
        expect(r.isError, path).toBe(true)
        expect(r.content, path).toMatch(/not a regular file or a folder/)
      }
      expect((await run('Grep', { pattern: 'x', path: '/dev/zero' })).content).toMatch(/a device/)
      const one = await run('Grep', { pattern: 'needle', path: 'src/a.txt', output_mode: 'content' })
      expect(one.content).toContain('src/a.txt:1:needle here')
      const glob = await run('Glob', { pattern: '**/*' })
      expect(glob.isError).toBeFalsy()
      expect(glob.content).toContain('src/a.txt')
    })
  }
})

describe('a full disk', () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-full-')))
  const disk = join(root, 'disk')
  mkdirSync(disk)
  const why = CAN_MOUNT ? null : CANNOT_MOUNT_REASON
  const mounted = CAN_MOUNT ? mountSmallDisk('1024k', disk) : null
  afterAll(() => {
    mounted?.unmount()
    rmSync(root, { recursive: true, force: true })
  })
  const original = `${'line of the original file\n'.repeat(2000)}last line\n` // ~52 KB
  const notebook = `${JSON.stringify({ cells: [{ id: 'c1', cell_type: 'code', source: ['x = 1\n'], metadata: {}, outputs: [], execution_count: null }], nbformat: 4, nbformat_minor: 5, metadata: {} }, null, 1)}\n`

  it.skipIf(why !== null)(
    `Edit, Write and NotebookEdit fail whole and leave the original byte for byte; after space is freed they succeed${why ? ` (skipped: ${why})` : ''}`,
    async () => {
      writeFileSync(join(disk, 'big.txt'), original)
      chmodSync(join(disk, 'big.txt'), 0o640)
      writeFileSync(join(disk, 'nb.ipynb'), notebook)
      const run = tools(disk)
      expect((await run('Read', { file_path: 'big.txt', offset: 1, limit: 5 })).isError).toBeFalsy()
      expect((await run('Read', { file_path: 'nb.ipynb' })).isError).toBeFalsy()
      // Fill what is left of the disk.
      let n = 0
      try {
        for (;;) writeFileSync(join(disk, `filler-${n++}`), Buffer.alloc(16 * 1024, 1))
      } catch (err) {
        expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC')
      }
      const bigger = original.replace('last line', `last line ${'grown '.repeat(20_000)}`)
      const attempts = [
        () => run('Edit', { file_path: 'big.txt', old_string: 'last line', new_string: `last line ${'grown '.repeat(20_000)}` }),
        () => run('Write', { file_path: 'big.txt', content: bigger }),
        () => run('NotebookEdit', { notebook_path: 'nb.ipynb', cell_id: 'c1', new_source: 'y = 2\n'.repeat(20_000) })
      ]
      for (const attempt of attempts) {
        const r = await attempt()
        expect(r.isError).toBe(true)
        expect(r.content).toMatch(/ENOSPC|no space/i)
        expect(readFileSync(join(disk, 'big.txt'), 'utf8')).toBe(original)
        expect(readFileSync(join(disk, 'nb.ipynb'), 'utf8')).toBe(notebook)
        expect(readdirSync(disk).filter((f) => f.endsWith('.tmp'))).toEqual([])
      }
      // Space freed: the same edit goes through, and the file keeps its mode.
      for (const f of readdirSync(disk).filter((f) => f.startsWith('filler-'))) rmSync(join(disk, f))
      const ok = await attempts[0]()
      expect(ok.isError, ok.content).toBeFalsy()
      expect(readFileSync(join(disk, 'big.txt'), 'utf8')).toBe(bigger)
      expect(statSync(join(disk, 'big.txt')).mode & 0o777).toBe(0o640)
      expect((await attempts[2]()).isError).toBeFalsy()
      expect(readdirSync(disk).filter((f) => f.endsWith('.tmp'))).toEqual([])
    }
  )
})
