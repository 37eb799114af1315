import { describe, expect, it } from 'vitest'
import type { Diagnostic } from '../../../shared/agent-definition'
import type { AgentAnalysis } from '../../../shared/agent-editor'
import { bannerLead, bannerNote, fieldProblemText, loadProblem, type LoadProblem } from './load-problem'

const FILE = '/p/.claude/agents/code-reviewer.md'
const analysis = (loaded: boolean, diagnostics: Partial<Diagnostic>[], extra: Partial<AgentAnalysis> = {}): AgentAnalysis => ({
  file: FILE,
  source: 'project',
  loaded,
  diagnostics: diagnostics.map((d) => ({ file: FILE, line: 1, column: 1, severity: 'warning', code: 'x', message: 'm', ...d })),
  fields: {},
  keySpans: {},
  unknownKeys: [],
  rawOnlyKeys: [],
  formEditable: true,
  body: '',
  bodyLine: 1,
  ...extra
})

/**
 * A draft the loader refuses, with its error as the loader words it (parse.test.ts checks those words), so
 * these tests read what the editor makes of each cause.
 */
const refused = (code: string, message: string, line: number, column: number, extra: Partial<AgentAnalysis> = {}): AgentAnalysis =>
  analysis(false, [{ severity: 'error', code, message: `${message}; the agent is not loaded`, line, column }], extra)

const EMPTY_DESCRIPTION = [
  'empty-description',
  '`description` is empty: it tells the parent agent when to use this one; write that after `description:`',
  3,
  14
] as const
const EMPTY_NAME = [
  'empty-name',
  '`name` is empty: it is the agent type the main agent asks for; write it after `name:`, e.g. `name: code-reviewer`',
  2,
  7
] as const
const MISSING_NAME = ['missing-name', 'the frontmatter has no `name:`; add `name: some-agent`', 2, 1] as const
const MISSING_DESCRIPTION = ['missing-description', 'the frontmatter has no `description:`, which tells the parent agent when to use this one', 2, 1] as const
const COLON = ['name-has-colon', 'the name "team:reviewer" contains ":", which is reserved for plugin agents (plugin:agent)', 2, 7] as const
const NUMBER = ['invalid-description', '`description` should be text, but YAML reads 42 as a number; put it in quotes to keep it as text', 3, 14] as const
const LIST = [
  'invalid-description',
  '`description` should be text, but is a list (["review","code"]); write it as one text, in quotes if it starts with `[` or `-`',
  3,
  14
] as const
const INDENTED = ['invalid-yaml', 'the frontmatter is not valid YAML: line 5 is indented, so YAML reads it as part of the value on line 4', 5, 3] as const

/** The banner's reason as it reads: lead, reason, the form's fix, and the note under it. */
function banner(problem: LoadProblem, dirty: boolean, diskLoads?: boolean): string {
  const fix = problem.fix ? ` — ${problem.fix.verb} ${problem.fix.label}` : ''
  return `${bannerLead(dirty)} ${problem.message}${fix} (at ${problem.at}) | ${bannerNote(problem, { dirty, diskLoads })}`
}

describe('loadProblem', () => {
  it('is the first error, without the "not loaded" it ends with, at file:line:col', () => {
    const a = analysis(false, [
      { severity: 'warning', line: 2, message: 'a warning first' },
      { severity: 'error', line: 5, column: 3, code: 'invalid-yaml', message: 'the frontmatter is not valid YAML: line 5 is indented; the agent is not loaded' }
    ])
    expect(loadProblem(a)).toEqual({ message: 'the frontmatter is not valid YAML: line 5 is indented', at: 'code-reviewer.md:5:3', line: 5 })
  })

  it('is nothing when the text loads, warnings or not', () => {
    expect(loadProblem(analysis(true, [{ severity: 'warning', code: 'yaml-repaired' }]))).toBeNull()
    expect(loadProblem(analysis(true, []))).toBeNull()
    expect(loadProblem(null)).toBeNull()
  })
})

describe('the words for each cause, of an unsaved draft and of a file', () => {
  it('a description cleared in the form: required, fill in Description — no raw file, no quotes', () => {
    const p = loadProblem(refused(...EMPTY_DESCRIPTION))!
    expect(p).toEqual({
      message: 'description is required',
      fix: { field: 'description', label: 'Description', verb: 'fill in' },
      at: 'code-reviewer.md:3:14',
      line: 3
    })
    expect(banner(p, true, true)).toBe(
      'With this change the agent would not load: description is required — fill in Description (at code-reviewer.md:3:14) | The file on disk still loads. Saved like this, Claude Code and Fanout would skip it.'
    )
    expect(banner(p, true, true)).not.toMatch(/quote|raw file|This file does not load/)
    // Saved like that: the file is what does not load.
    expect(banner(p, false)).toBe(
      'This file does not load: description is required — fill in Description (at code-reviewer.md:3:14) | Until it is fixed, Claude Code and Fanout skip it.'
    )
  })

  it('an empty or missing name or description: required, in the field it belongs to', () => {
    expect(loadProblem(refused(...MISSING_DESCRIPTION))).toMatchObject({ message: 'description is required', fix: { field: 'description', verb: 'fill in' } })
    expect(loadProblem(refused(...EMPTY_NAME))).toMatchObject({
      message: 'name is required',
      fix: { field: 'name', label: 'Name', verb: 'fill in' },
      at: 'code-reviewer.md:2:7'
    })
    expect(loadProblem(refused(...MISSING_NAME))).toMatchObject({ message: 'name is required', fix: { field: 'name', label: 'Name', verb: 'fill in' } })
  })

  it('a name with ":": the loader says why, and the fix is in Name', () => {
    const p = loadProblem(refused(...COLON))!
    expect(p.message).toBe('the name "team:reviewer" contains ":", which is reserved for plugin agents (plugin:agent)')
    expect(p.fix).toEqual({ field: 'name', label: 'Name', verb: 'take the ":" out of' })
  })

  it("a number where text goes (written in the raw file): the loader's quotes, which fix it, and the raw file", () => {
    const p = loadProblem(refused(...NUMBER))!
    expect(p.message).toBe('`description` should be text, but YAML reads 42 as a number; put it in quotes to keep it as text')
    expect(p.fix).toBeUndefined()
    expect(bannerNote(p, { dirty: true, diskLoads: true })).toBe(
      'The file on disk still loads. Saved like this, Claude Code and Fanout would skip it. Fix it in the raw file.'
    )
  })

  it('a list where text goes: what it is, and quotes only for the brackets', () => {
    expect(loadProblem(refused(...LIST))).toEqual({ message: LIST[1], at: 'code-reviewer.md:3:14', line: 3 })
  })

  it('YAML the loader cannot read: the raw file, no field', () => {
    const p = loadProblem(refused(...INDENTED, { formEditable: false }))!
    expect(p).toEqual({ message: INDENTED[1], at: 'code-reviewer.md:5:3', line: 5 })
    expect(bannerNote(p, { dirty: false })).toBe('Until it is fixed, Claude Code and Fanout skip it. Fix it in the raw file.')
    expect(bannerNote(p, { dirty: true, diskLoads: false })).toBe(
      'The file on disk does not load either: Claude Code and Fanout skip it until it is fixed. Fix it in the raw file.'
    )
    expect(bannerNote(p, { dirty: true })).toBe('Saved like this, Claude Code and Fanout would skip it. Fix it in the raw file.')
  })

  it('no form fix where the form cannot edit: a read-only agent, or a form that cannot read the file', () => {
    expect(loadProblem(refused(...EMPTY_DESCRIPTION), { editable: false })).toEqual({ message: EMPTY_DESCRIPTION[1], at: 'code-reviewer.md:3:14', line: 3 })
    expect(loadProblem(refused(...EMPTY_DESCRIPTION, { formEditable: false }))!.fix).toBeUndefined()
  })

  it('under the field itself: "Required" for an empty one; other problems as the loader says them', () => {
    const [empty] = refused(...EMPTY_DESCRIPTION).diagnostics
    expect(fieldProblemText(empty)).toBe('Required: without it the agent does not load.')
    const [number] = refused(...NUMBER).diagnostics
    expect(fieldProblemText(number)).toBe(number.message)
  })
})
