import { readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEditTool } from './edit'
import { FileState } from './file-state'
import { createReadTool } from './read'
import { runTool } from '../tool-call/execute'
import { makeTempDir, toolContext, writeTree } from './test-kit'
import { formatPatch, type PatchSummary } from './text-patch'
import { createWriteTool } from './write'

let dir: string
let cleanup: () => void
let state: FileState
beforeEach(() => {
  ;({ dir, cleanup } = makeTempDir())
  state = new FileState()
})
afterEach(() => cleanup())

const run = (tool: 'Read' | 'Write' | 'Edit', input: Record<string, unknown>) => {
  const make = { Read: createReadTool, Write: createWriteTool, Edit: createEditTool }[tool]
  return runTool(make({ cwd: dir, fileState: state }), input, toolContext())
}
const text = (rel: string) => readFileSync(join(dir, rel), 'utf8')

/** A refused call: an error for the model that says `says`, and the file left exactly as it was. */
async function expectRefused(tool: 'Write' | 'Edit', input: Record<string, unknown>, says: string, unchanged: string): Promise<void> {
  const r = await run(tool, input)
  expect(r.isError).toBe(true)
  expect(r.content).toContain(says)
  expect(text(input.file_path as string)).toBe(unchanged)
}

describe('Write', () => {
  it('creates a new file and its parent directories without a prior Read', async () => {
    const r = await run('Write', { file_path: 'deep/er/new.txt', content: 'one\ntwo\n' })
    expect(r.isError).toBeFalsy()
    expect(r.content).toContain('File created successfully at: deep/er/new.txt (2 lines)')
    expect(text('deep/er/new.txt')).toBe('one\ntwo\n')
    expect((r.details as { kind: string }).kind).toBe('create')
  })

  it('refuses to overwrite a file this agent has not read, and leaves it untouched', async () => {
    writeTree(dir, { 'a.txt': 'precious' })
    await expectRefused('Write', { file_path: 'a.txt', content: 'clobbered' }, 'has not been read yet. Read it first', 'precious')
  })

  it('overwrites after a Read, and again after its own write without re-reading', async () => {
    writeTree(dir, { 'a.txt': 'v1' })
    await run('Read', { file_path: 'a.txt' })
    expect((await run('Write', { file_path: 'a.txt', content: 'v2' })).isError).toBeFalsy()
    expect((await run('Write', { file_path: 'a.txt', content: 'v3' })).isError).toBeFalsy()
    expect(text('a.txt')).toBe('v3')
  })

  it('refuses when the file changed on disk since it was read, but not when it was only touched', async () => {
    writeTree(dir, { 'a.txt': 'v1' })
    await run('Read', { file_path: 'a.txt' })
    const later = Date.now() / 1000 + 60
    utimesSync(join(dir, 'a.txt'), later, later) // same content, new mtime
    expect((await run('Write', { file_path: 'a.txt', content: 'v2' })).isError).toBeFalsy()
    writeFileSync(join(dir, 'a.txt'), 'edited by the user')
    utimesSync(join(dir, 'a.txt'), later + 60, later + 60)
    await expectRefused('Write', { file_path: 'a.txt', content: 'v3' }, 'modified on disk since you last read it', 'edited by the user')
  })

  it('refuses to write over a directory', async () => {
    writeTree(dir, { 'd/x': '' })
    const r = await run('Write', { file_path: 'd', content: 'x' })
    expect(r.isError).toBe(true)
    expect(r.content).toContain('is a directory')
  })
})

describe('Edit', () => {
  beforeEach(() => writeTree(dir, { 'code.ts': 'function a() {\n  return 1\n}\n\nfunction b() {\n  return 1\n}\n' }))

  it('replaces a unique string and returns a structured patch in details', async () => {
    await run('Read', { file_path: 'code.ts' })
    const r = await run('Edit', { file_path: 'code.ts', old_string: 'function b() {\n  return 1', new_string: 'function b() {\n  return 2' })
    expect(r.isError).toBeFalsy()
    expect(r.content).toContain('(1 replacement; +1 -1)')
    expect(r.content).toContain('     6\t  return 2')
    expect(text('code.ts')).toContain('function b() {\n  return 2\n}')
    const d = r.details as PatchSummary & { replacements: number }
    expect(formatPatch(d)).toBe(['@@ -3,5 +3,5 @@', ' }', ' ', ' function b() {', '-  return 1', '+  return 2', ' }'].join('\n'))
  })

  it('says how many matches there are, and where, when old_string is not unique', async () => {
    await run('Read', { file_path: 'code.ts' })
    const r = await run('Edit', { file_path: 'code.ts', old_string: 'return 1', new_string: 'return 9' })
    expect(r.isError).toBe(true)
    expect(r.content).toContain('Found 2 matches of old_string in code.ts (at lines 2, 6)')
    expect(r.content).toContain('set replace_all to true')
    expect(text('code.ts')).not.toContain('return 9')
  })

  it('replaces every occurrence with replace_all, one hunk per separated change', async () => {
    await run('Read', { file_path: 'code.ts' })
    const r = await run('Edit', { file_path: 'code.ts', old_string: 'return 1', new_string: 'return 9', replace_all: true })
    expect(r.content).toContain('2 replacements')
    expect(text('code.ts').match(/return 9/g)).toHaveLength(2)
    const d = r.details as PatchSummary
    expect(d.additions).toBe(2)
    expect(d.deletions).toBe(2)
  })

  it('explains a miss, including line-number prefixes copied from Read', async () => {
    await run('Read', { file_path: 'code.ts' })
    const miss = await run('Edit', { file_path: 'code.ts', old_string: 'function c()', new_string: 'x' })
    expect(miss.isError).toBe(true)
    expect(miss.content).toContain('old_string was not found in code.ts')
    const prefixed = await run('Edit', { file_path: 'code.ts', old_string: '     2\t  return 1', new_string: 'x' })
    expect(prefixed.content).toContain('line-number prefixes')
    const ws = await run('Edit', { file_path: 'code.ts', old_string: 'function a() {\n    return 1', new_string: 'x' })
    expect(ws.content).toContain('does occur (line 1)')
  })

  it('requires a Read first and rejects no-op edits', async () => {
    const r = await run('Edit', { file_path: 'code.ts', old_string: 'return 1\n}\n\n', new_string: 'x' })
    expect(r.isError).toBe(true)
    expect(r.content).toContain('Read it first')
    const same = await run('Edit', { file_path: 'code.ts', old_string: 'a', new_string: 'a' })
    expect(same.content).toContain('exactly the same')
  })

  it('edits CRLF files using the text Read showed, keeping CRLF line endings', async () => {
    writeTree(dir, { 'win.txt': 'one\r\ntwo\r\nthree\r\n' })
    await run('Read', { file_path: 'win.txt' })
    const r = await run('Edit', { file_path: 'win.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' })
    expect(r.isError).toBeFalsy()
    expect(text('win.txt')).toBe('uno\r\ndos\r\nthree\r\n')
  })

  it('creates a missing file from an empty old_string, and refuses a missing file otherwise', async () => {
    const created = await run('Edit', { file_path: 'fresh/n.md', old_string: '', new_string: '# Title\n' })
    expect(created.isError).toBeFalsy()
    expect(text('fresh/n.md')).toBe('# Title\n')
    const missing = await run('Edit', { file_path: 'nope.md', old_string: 'a', new_string: 'b' })
    expect(missing.content).toContain('File does not exist: nope.md')
  })

  it('treats $ in new_string literally', async () => {
    await run('Read', { file_path: 'code.ts' })
    await run('Edit', { file_path: 'code.ts', old_string: 'function a() {', new_string: "function a() { const p = '$&$1'" })
    expect(text('code.ts')).toContain("const p = '$&$1'")
  })
})
