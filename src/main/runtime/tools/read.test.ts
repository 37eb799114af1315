import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FileState } from './file-state'
import { createReadTool, READ_DEFAULT_LIMIT } from './read'
import { makeTempDir, toolContext, writeTree } from './test-kit'
import { runTool } from '../tool-call/execute'

let dir: string
let cleanup: () => void
beforeEach(() => ({ dir, cleanup } = makeTempDir()))
afterEach(() => cleanup())

async function read(input: Record<string, unknown>, fileState = new FileState()) {
  return runTool(createReadTool({ cwd: dir, fileState }), input, toolContext())
}

describe('Read', () => {
  it('numbers lines cat -n style, resolving relative paths against the agent cwd (not process.cwd)', async () => {
    writeTree(dir, { 'src/a.txt': 'alpha\nbeta\n' })
    const r = await read({ file_path: 'src/a.txt' })
    expect(r.isError).toBeFalsy()
    expect(r.content).toBe('     1\talpha\n     2\tbeta')
  })

  it('reads a window with offset and limit, and says how to continue', async () => {
    writeTree(dir, { 'n.txt': Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') })
    const r = await read({ file_path: `${dir}/n.txt`, offset: 4, limit: 3 })
    expect(r.content).toContain('     4\tline 4\n     5\tline 5\n     6\tline 6')
    expect(r.content).not.toContain('line 7')
    expect(r.content).toContain('Showing lines 4-6 of 10. Use offset 7 to read more.')
  })

  it(`shows ${READ_DEFAULT_LIMIT} lines by default and cuts very long lines`, async () => {
    writeTree(dir, { 'long.txt': Array.from({ length: 2500 }, (_, i) => (i === 0 ? 'x'.repeat(5000) : `l${i + 1}`)).join('\n') })
    const r = await read({ file_path: 'long.txt' })
    expect(r.content).toContain('[line cut: 5000 characters]')
    expect(r.content).toContain('  2000\tl2000')
    expect(r.content).not.toContain('l2001')
    expect(r.content).toContain('Use offset 2001')
  })

  it('strips CR from CRLF files and handles empty files and offsets past the end', async () => {
    writeTree(dir, { 'crlf.txt': 'a\r\nb\r\n', 'empty.txt': '' })
    expect((await read({ file_path: 'crlf.txt' })).content).toBe('     1\ta\n     2\tb')
    expect((await read({ file_path: 'empty.txt' })).content).toMatch(/empty/)
    const past = await read({ file_path: 'crlf.txt', offset: 9 })
    expect(past.content).toContain('has 2 lines; offset 9 is past the end')
  })

  it('refuses directories, binaries and images with a clear message', async () => {
    writeTree(dir, {
      'sub/x.txt': 'x',
      'img.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]),
      'blob.bin': Buffer.from([1, 2, 0, 3, 4])
    })
    const d = await read({ file_path: 'sub' })
    expect(d.isError).toBe(true)
    expect(d.content).toContain('sub is a directory')
    const img = await read({ file_path: 'img.png' })
    expect(img.isError).toBe(true)
    expect(img.content).toContain('PNG image')
    const bin = await read({ file_path: 'blob.bin' })
    expect(bin.content).toContain('binary file')
  })

  it('says a missing file does not exist and suggests a near name', async () => {
    writeTree(dir, { 'config.json': '{}' })
    const r = await read({ file_path: 'config.yaml' })
    expect(r.isError).toBe(true)
    expect(r.content).toContain('File does not exist: config.yaml')
    expect(r.content).toContain('Did you mean config.json?')
  })

  it('asks for offset/limit instead of reading a huge file whole', async () => {
    writeTree(dir, { 'big.txt': 'y'.repeat(100) + '\n'.repeat(1) + 'z\n'.repeat(200_000) })
    const r = await read({ file_path: 'big.txt' })
    expect(r.isError).toBe(true)
    expect(r.content).toMatch(/offset and limit/)
    const part = await read({ file_path: 'big.txt', offset: 2, limit: 2 })
    expect(part.content).toBe('     2\tz\n     3\tz\n\n[Showing lines 2-3 of 200001. Use offset 4 to read more.]')
  })

  it('records what it read in the agent FileState', async () => {
    writeTree(dir, { 'a.txt': 'hi' })
    const state = new FileState()
    await read({ file_path: 'a.txt' }, state)
    expect(state.has(`${dir}/a.txt`)).toBe(true)
  })

  it('rejects invalid input with an actionable message', async () => {
    const r = await read({ path: 'a.txt' })
    expect(r.isError).toBe(true)
    expect(r.content).toContain('file_path')
    expect(r.content).toContain('call Read again')
  })
})
