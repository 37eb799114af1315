import { describe, expect, it } from 'vitest'
import type { Diagnostic } from '../../../shared/agent-definition'
import type { AgentAnalysis } from '../../../shared/agent-editor'
import { loadProblem } from './load-problem'

const FILE = '/p/.claude/agents/code-reviewer.md'
const analysis = (loaded: boolean, diagnostics: Partial<Diagnostic>[]): AgentAnalysis => ({
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
  bodyLine: 1
})

describe('loadProblem', () => {
  it('is the first error, as a sentence, at file:line:col', () => {
    const a = analysis(false, [
      { severity: 'warning', line: 2, message: 'a warning first' },
      { severity: 'error', line: 5, column: 3, code: 'invalid-yaml', message: 'the frontmatter is not valid YAML: line 5 is indented; the agent is not loaded' }
    ])
    expect(loadProblem(a)).toEqual({ message: 'The frontmatter is not valid YAML: line 5 is indented', at: 'code-reviewer.md:5:3', line: 5 })
  })

  it('is nothing when the text loads, warnings or not', () => {
    expect(loadProblem(analysis(true, [{ severity: 'warning', code: 'yaml-repaired' }]))).toBeNull()
    expect(loadProblem(analysis(true, []))).toBeNull()
    expect(loadProblem(null)).toBeNull()
  })
})
