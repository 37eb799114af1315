import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BUILTIN_TOOL_META, BUILTIN_TOOL_NAMES, createBuiltinTools, TodoList } from './index'
import { runTool } from '../tool-call/execute'
import { makeTempDir, toolContext, writeTree } from './test-kit'

let dir: string
let cleanup: () => void
beforeEach(() => ({ dir, cleanup } = makeTempDir()))
afterEach(() => cleanup())

const byName = (tools: ReturnType<typeof createBuiltinTools>) => Object.fromEntries(tools.map((t) => [t.name, t]))

describe('createBuiltinTools', () => {
  it('builds every named tool, in the order requests carry them, with the metadata the registry advertises', () => {
    const tools = createBuiltinTools({ cwd: dir })
    expect(tools.map((t) => t.name)).toEqual(['Bash', 'Glob', 'Grep', 'Read', 'Edit', 'Write', 'NotebookEdit', 'WebFetch', 'TodoWrite'])
    expect(tools.map((t) => t.name)).toEqual([...BUILTIN_TOOL_NAMES])
    for (const t of tools) {
      expect({ name: t.name, readOnly: t.readOnly, concurrencySafe: t.concurrencySafe, permission: t.permission }).toEqual(BUILTIN_TOOL_META[t.name])
      expect(t.inputJsonSchema.type).toBe('object')
    }
  })

  it('uses Claude Code input names, which real agent files and models rely on', () => {
    const t = byName(createBuiltinTools({ cwd: dir }))
    const props = (name: string) => Object.keys((t[name].inputJsonSchema as { properties: object }).properties)
    expect(props('Read')).toEqual(['file_path', 'offset', 'limit'])
    expect(props('Edit')).toEqual(['file_path', 'old_string', 'new_string', 'replace_all'])
    expect(props('Grep')).toEqual(['pattern', 'path', 'glob', 'type', 'output_mode', '-i', '-n', '-A', '-B', '-C', 'multiline', 'head_limit'])
    expect(props('Bash')).toEqual(['command', 'timeout', 'description', 'run_in_background', 'dangerouslyDisableSandbox'])
    expect((t.Read.inputJsonSchema as { required: string[] }).required).toEqual(['file_path'])
  })

  it('shares one FileState per agent: a Read lets that agent Edit, another agent is still refused', async () => {
    writeTree(dir, { 'a.txt': 'hello' })
    const agentA = byName(createBuiltinTools({ cwd: dir }))
    const agentB = byName(createBuiltinTools({ cwd: dir }))
    await runTool(agentA.Read, { file_path: 'a.txt' }, toolContext())
    expect((await runTool(agentA.Edit, { file_path: 'a.txt', old_string: 'hello', new_string: 'hi' }, toolContext())).isError).toBeFalsy()
    expect((await runTool(agentB.Edit, { file_path: 'a.txt', old_string: 'hi', new_string: 'yo' }, toolContext())).isError).toBe(true)
  })

  it('builds tools on the cwd it is given (a worktree), never the process cwd', async () => {
    writeTree(dir, { 'only-here.txt': 'x' })
    const t = byName(createBuiltinTools({ cwd: dir }))
    expect((await runTool(t.Glob, { pattern: '*.txt' }, toolContext())).content).toBe('only-here.txt')
    expect((await runTool(t.Bash, { command: 'ls' }, toolContext())).content).toBe('only-here.txt')
  })
})

describe('TodoWrite', () => {
  it('keeps the list per agent and gives the UI the new and previous lists', async () => {
    const todos = new TodoList()
    const t = byName(createBuiltinTools({ cwd: dir, todos }))
    await runTool(t.TodoWrite, { todos: [{ content: 'Write tests', status: 'in_progress', activeForm: 'Writing tests' }] }, toolContext())
    const r = await runTool(
      t.TodoWrite,
      {
        todos: [
          { content: 'Write tests', status: 'completed' },
          { content: 'Ship', status: 'pending' }
        ]
      },
      toolContext()
    )
    expect(r.content).toContain('1 completed, 0 in progress, 1 pending')
    expect(todos.items.map((i) => i.status)).toEqual(['completed', 'pending'])
    expect((r.details as { previous: unknown[] }).previous).toHaveLength(1)
    const bad = await runTool(t.TodoWrite, { todos: [{ content: 'x', status: 'done' }] }, toolContext())
    expect(bad.isError).toBe(true)
    expect(bad.content).toContain('todos.0.status')
  })
})

describe('NotebookEdit', () => {
  const nb = {
    cells: [
      { id: 'intro', cell_type: 'markdown', metadata: {}, source: ['# Title\n'] },
      { id: 'code1', cell_type: 'code', metadata: {}, source: ['print(1)\n'], execution_count: 3, outputs: [{ output_type: 'stream', text: ['1\n'] }] }
    ],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5
  }

  it('replaces, inserts and deletes cells after a Read, clearing stale outputs', async () => {
    writeTree(dir, { 'n.ipynb': JSON.stringify(nb) })
    const t = byName(createBuiltinTools({ cwd: dir }))
    const refused = await runTool(t.NotebookEdit, { notebook_path: 'n.ipynb', cell_id: 'code1', new_source: 'x' }, toolContext())
    expect(refused.content).toContain('Read it first')
    await runTool(t.Read, { file_path: 'n.ipynb' }, toolContext())
    await runTool(t.NotebookEdit, { notebook_path: 'n.ipynb', cell_id: 'code1', new_source: 'print(2)\nprint(3)' }, toolContext())
    await runTool(
      t.NotebookEdit,
      { notebook_path: 'n.ipynb', cell_id: 'intro', new_source: 'Some prose', cell_type: 'markdown', edit_mode: 'insert' },
      toolContext()
    )
    await runTool(t.NotebookEdit, { notebook_path: 'n.ipynb', cell_id: 'intro', new_source: '', edit_mode: 'delete' }, toolContext())
    const saved = JSON.parse(readFileSync(join(dir, 'n.ipynb'), 'utf8'))
    expect(saved.cells.map((c: { cell_type: string }) => c.cell_type)).toEqual(['markdown', 'code'])
    expect(saved.cells[0].source).toEqual(['Some prose'])
    expect(saved.cells[1]).toMatchObject({ id: 'code1', source: ['print(2)\n', 'print(3)'], execution_count: null, outputs: [] })
    const missing = await runTool(t.NotebookEdit, { notebook_path: 'n.ipynb', cell_id: 'nope', new_source: '' }, toolContext())
    expect(missing.content).toContain('No cell with id "nope"')
  })
})
