import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentAnalysis, AgentLibrary, FieldChange, LibraryEntry } from '../../../shared/agent-editor'
import type { CallName } from '../../../shared/ipc-contract'
import { resetStore, useApp } from '../state/store'
import { CallError, type FanoutApi } from '../transport/types'
import { setField, setRawText } from './draft-edits'
import { selectEntry, visibleEntries } from './editor-library'
import { isDirty, useAgentEditor } from './editor-store'
import { keepMine, saveDraft } from './file-actions'
import { useToasts } from '../views/notifications'

const FILE = '/work/project/.claude/agents/a.md'
const VERSION = { mtimeMs: 1, size: 1, hash: 'a'.repeat(64) }
/** Text with BROKEN in it does not load (an error on line 5); WARN loads with a warning. */
const analysis = (text: string): AgentAnalysis => ({
  file: FILE,
  source: 'project',
  loaded: !text.includes('BROKEN'),
  diagnostics: [
    ...(text.includes('BROKEN')
      ? [
          {
            file: FILE,
            line: 5,
            column: 3,
            severity: 'error' as const,
            code: 'invalid-yaml',
            message: 'the frontmatter is not valid YAML: line 5 is indented; the agent is not loaded'
          }
        ]
      : []),
    ...(text.includes('WARN') ? [{ file: FILE, line: 4, column: 8, severity: 'warning' as const, code: 'yaml-repaired', message: 'quoted' }] : [])
  ],
  fields: {},
  keySpans: {},
  unknownKeys: [],
  rawOnlyKeys: [],
  formEditable: true,
  body: text,
  bodyLine: 1
})

/** A host whose `agents.edit` answers only when the test releases it, appending `key=value` lines. */
function fakeHost(disk: { text: string }) {
  const edits: Array<{ text: string; changes: FieldChange[]; release: () => void }> = []
  const saves: Array<{ text: string; base: unknown; force?: boolean }> = []
  const api: FanoutApi = {
    mode: 'browser',
    async call(name: CallName, request: any) {
      switch (name) {
        case 'agents.library':
          return {
            library: { entries: [{ id: FILE, file: FILE, source: 'project', scope: 'project', loaded: true, active: true, shadows: [], diagnostics: [] }] }
          } as never
        case 'agents.open':
          return { document: { file: FILE, text: disk.text, version: VERSION, source: 'project', scope: 'project', analysis: analysis(disk.text) } } as never
        case 'agents.edit': {
          await new Promise<void>((release) => edits.push({ text: request.text, changes: request.changes, release }))
          // A value with BADYAML in it is refused, as the host refuses YAML that does not parse; the others are made.
          const made = request.changes.filter((c: FieldChange) => !String(c.value).includes('BADYAML'))
          const refused = request.changes.find((c: FieldChange) => String(c.value).includes('BADYAML'))
          const text = request.text + made.map((c: FieldChange) => `${c.key}=${String(c.value)}\n`).join('')
          return {
            text,
            analysis: analysis(text),
            ...(refused ? { error: { key: refused.key, message: `\`${refused.key}\` is not valid YAML: bad` } } : {})
          } as never
        }
        case 'agents.analyze':
          return { analysis: analysis(request.text) } as never
        case 'agents.save':
          saves.push({ text: request.text, base: request.base, force: request.force })
          if (request.base?.hash === VERSION.hash && disk.text !== 'changed elsewhere') {
            disk.text = request.text
            return { result: { saved: true, version: { ...VERSION, hash: 'b'.repeat(64) }, analysis: analysis(request.text) } } as never
          }
          return { result: { saved: false, conflict: { text: disk.text, version: { ...VERSION, hash: 'c'.repeat(64) } } } } as never
        default:
          throw new CallError('unsupported', `${name} is not faked`)
      }
    },
    onEvents: () => () => {},
    onNotice: () => () => {},
    onConnection: () => () => {}
  }
  return { api, edits, saves }
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 1))
  expect(check()).toBe(true)
}

beforeEach(() => {
  resetStore()
  useToasts.setState({ toasts: [] })
  useAgentEditor.setState({ draft: null, selected: null, library: null, dialog: null })
})
afterEach(() => resetStore())

async function openDraft(disk: { text: string }) {
  const host = fakeHost(disk)
  useApp.setState({ api: host.api, workspace: { cwd: '/work/project', name: 'project', isGitRepo: true } })
  useAgentEditor.setState({ library: { entries: [{ id: FILE, file: FILE }] } as unknown as AgentLibrary })
  selectEntry(FILE)
  await until(() => useAgentEditor.getState().draft !== null)
  return host
}

describe('agent editor store', () => {
  it('sends form changes one batch at a time, coalescing what piled up, each on the latest text', async () => {
    const host = await openDraft({ text: 'start\n' })
    setField('model', 'opus')
    await until(() => host.edits.length === 1)
    setField('color', 'red')
    setField('color', 'blue') // typed over before it was sent: only the last value goes
    host.edits[0].release()
    await until(() => host.edits.length === 2)
    expect(host.edits[1]).toMatchObject({ text: 'start\nmodel=opus\n', changes: [{ key: 'color', value: 'blue' }] })
    host.edits[1].release()
    await until(() => useAgentEditor.getState().draft!.text === 'start\nmodel=opus\ncolor=blue\n')
    expect(isDirty(useAgentEditor.getState().draft)).toBe(true)
  })

  it('re-applies a change to the raw text typed while it was on its way, so no keystroke is lost', async () => {
    const host = await openDraft({ text: 'start\n' })
    setField('model', 'opus')
    await until(() => host.edits.length === 1)
    setRawText('start\nraw line\n')
    host.edits[0].release()
    await until(() => host.edits.length === 2)
    expect(host.edits[1].text).toBe('start\nraw line\n')
    host.edits[1].release()
    await until(() => useAgentEditor.getState().draft!.text === 'start\nraw line\nmodel=opus\n')
  })

  it('shows a save conflict instead of overwriting, and keeping mine saves over it knowingly', async () => {
    const disk = { text: 'start\n' }
    const host = await openDraft(disk)
    setRawText('mine\n')
    disk.text = 'changed elsewhere'
    await saveDraft()
    expect(useAgentEditor.getState().draft!.conflict).toEqual({ text: 'changed elsewhere', version: expect.objectContaining({ hash: 'c'.repeat(64) }) })
    expect(disk.text).toBe('changed elsewhere')
    keepMine()
    expect(useAgentEditor.getState().draft!.base).toMatchObject({ hash: 'c'.repeat(64) })
    expect(host.saves).toHaveLength(1)
  })

  it('confirms a save with a "Saved <file>" toast that says whether it loads', async () => {
    await openDraft({ text: 'start\n' })
    setRawText('mine\n')
    await saveDraft()
    expect(isDirty(useAgentEditor.getState().draft)).toBe(false)
    expect(useToasts.getState().toasts).toEqual([expect.objectContaining({ title: 'Saved a.md', body: 'Loads cleanly.', kind: 'success' })])
    setRawText('again\n')
    await saveDraft()
    expect(useToasts.getState().toasts).toHaveLength(1) // a new save replaces the last one's toast
  })

  it('asks before saving a draft that will not load, checking the text as it is now; Save anyway writes it', async () => {
    const disk = { text: 'start\n' }
    const host = await openDraft(disk)
    setRawText('BROKEN\n') // saved before its analysis is due: the save checks this very text first
    await saveDraft()
    expect(useAgentEditor.getState().dialog).toEqual({
      kind: 'save-anyway',
      problem: { message: 'the frontmatter is not valid YAML: line 5 is indented', at: 'a.md:5:3', line: 5 }
    })
    expect(host.saves).toHaveLength(0)
    expect(disk.text).toBe('start\n')
    await saveDraft({ anyway: true })
    expect(useAgentEditor.getState().dialog).toBeNull()
    expect(disk.text).toBe('BROKEN\n')
    expect(useToasts.getState().toasts).toEqual([
      expect.objectContaining({ title: 'Saved a.md', body: 'It does not load until its errors are fixed.', kind: 'warn' })
    ])
  })

  it('saves a draft with warnings only without asking', async () => {
    const disk = { text: 'start\n' }
    await openDraft(disk)
    setRawText('WARN\n')
    await saveDraft()
    expect(useAgentEditor.getState().dialog).toBeNull()
    expect(disk.text).toBe('WARN\n')
    expect(useToasts.getState().toasts).toEqual([expect.objectContaining({ body: 'Loads, with 1 warning.', kind: 'success' })])
  })

  it('never saves a draft without what was typed in a field the text could not take, and says which field and where', async () => {
    const disk = { text: 'start\n' }
    const host = await openDraft(disk)
    setField('hooks', 'BADYAML: [')
    setField('model', 'opus')
    await until(() => host.edits.length === 1)
    host.edits[0].release()
    await until(() => host.edits.length === 2)
    host.edits[1].release()
    await until(() => useAgentEditor.getState().draft!.text === 'start\nmodel=opus\n') // the other field's change is made
    expect(useAgentEditor.getState().draft!.unapplied).toEqual({ hooks: '`hooks` is not valid YAML: bad' })
    expect(isDirty(useAgentEditor.getState().draft)).toBe(true)
    await saveDraft()
    expect(host.saves).toHaveLength(0)
    expect(disk.text).toBe('start\n')
    const refused = useAgentEditor.getState().draft!.saveError!
    expect(refused).toMatch(/^Not saved: /)
    expect(refused).toContain('Hooks (`hooks`, not in a.md yet): `hooks` is not valid YAML: bad.')
    expect(useToasts.getState().toasts).toEqual([]) // no "Saved… Loads cleanly"
    // Fixed: the field is in the text, the refusal goes, and the save writes all of it.
    setField('hooks', 'PreToolUse: []')
    await until(() => host.edits.length === 3)
    host.edits[2].release()
    await until(() => useAgentEditor.getState().draft!.unapplied === undefined)
    expect(useAgentEditor.getState().draft!.saveError).toBeUndefined()
    await saveDraft()
    expect(disk.text).toBe('start\nmodel=opus\nhooks=PreToolUse: []\n')
  })

  it('asks before leaving unsaved changes', async () => {
    await openDraft({ text: 'start\n' })
    setRawText('edited\n')
    selectEntry(null)
    expect(useAgentEditor.getState().dialog).toEqual({ kind: 'discard', next: null })
    expect(useAgentEditor.getState().draft!.text).toBe('edited\n')
  })
})

describe('visibleEntries', () => {
  const entry = (over: Partial<LibraryEntry>): LibraryEntry => ({
    id: over.file ?? 'x',
    source: 'project',
    loaded: true,
    active: true,
    shadows: [],
    diagnostics: [],
    ...over
  })
  const library = {
    entries: [
      entry({ file: '/p/a.md', agentType: 'reviewer', description: 'Reviews code', scope: 'project', toolsLabel: 'Read, Grep' }),
      entry({
        file: '/p/b.md',
        loaded: false,
        diagnostics: [{ file: '/p/b.md', line: 1, column: 1, severity: 'error', code: 'missing-name', message: 'x' }],
        scope: 'project'
      }),
      entry({ file: '/u/a.md', agentType: 'reviewer', source: 'user', active: false, shadowedBy: { source: 'project', file: '/p/a.md' }, scope: 'user' }),
      entry({ file: '/b/Explore.md', agentType: 'Explore', source: 'built-in', description: 'Finds files', toolsLabel: 'All tools' })
    ]
  } as AgentLibrary

  it('filters by problems, editable and shadowing, and searches name, description, file and tools', () => {
    const ids = (q: string, f: Parameters<typeof visibleEntries>[2]) => visibleEntries(library, q, f).map((e) => e.file)
    expect(ids('', 'problems')).toEqual(['/p/b.md'])
    expect(ids('', 'editable')).toEqual(['/p/a.md', '/p/b.md', '/u/a.md'])
    expect(ids('', 'shadowed')).toEqual(['/u/a.md'])
    expect(ids('grep', 'all')).toEqual(['/p/a.md'])
    expect(ids('FINDS', 'all')).toEqual(['/b/Explore.md'])
    expect(ids('explore.md', 'all')).toEqual(['/b/Explore.md'])
  })
})
