// Where a hard YAML error is reported: at the line a person has to change, not where the yaml library
// happened to notice (for a wrongly indented line that is the line above; for an unclosed bracket or quote
// it is the end of the frontmatter).
import { describe, expect, it } from 'vitest'
import { parseAgentMarkdown } from './parse'

const F = '/p/.claude/agents/code-reviewer.md'

/** The file's lines joined; the reported line and column of its invalid-yaml error. */
function reported(...lines: string[]): { line: number; column: number; message: string } {
  const r = parseAgentMarkdown(lines.join('\n'), F, 'project')
  expect(r.definition).toBeUndefined()
  const d = r.diagnostics.find((x) => x.code === 'invalid-yaml')
  expect(d, JSON.stringify(r.diagnostics)).toBeDefined()
  return { line: d!.line, column: d!.column, message: d!.message }
}

describe('hard YAML errors point at the line that is wrong', () => {
  it('a key indented under a one-line value: the indented line, not the line above', () => {
    const at = reported('---', 'name: code-reviewer', 'description: Reviews code', 'tools: Read', '  model: sonnet', 'color: blue', '---', 'Body', '')
    expect(at).toMatchObject({ line: 5, column: 3 })
    expect(at.message).toContain('line 5 is indented, so YAML reads it as part of the value on line 4')
  })

  it('the second key indented by one space', () => {
    expect(reported('---', 'name: x', ' description: y', 'model: sonnet', '---', '')).toMatchObject({ line: 3, column: 2 })
  })

  it('the last key indented', () => {
    expect(reported('---', 'name: x', 'description: y', '  model: sonnet', '---', '')).toMatchObject({ line: 4, column: 3 })
  })

  it('a continuation line of a description that holds "key: value"', () => {
    expect(reported('---', 'name: x', 'description: Use this agent', '  to review code', '  Example: a diff', 'model: sonnet', '---', '')).toMatchObject({
      line: 5,
      column: 3
    })
  })

  it('a list item indented less than the ones before it', () => {
    expect(reported('---', 'name: x', 'description: y', 'hooks:', '    PreToolUse:', '  - matcher: Bash', '---', '')).toMatchObject({ line: 6, column: 3 })
  })

  it('an unclosed [ list: the line that opens it, not the key after it', () => {
    const at = reported('---', 'name: x', 'description: y', 'tools: [Read, Grep,', '  Glob', 'model: sonnet', '---', '')
    expect(at).toMatchObject({ line: 4, column: 8 })
    expect(at.message).toContain('the `[` on line 4 is never closed by a `]`')
    expect(reported('---', 'name: x', 'description: y', 'hooks:', '  PreToolUse: [a, b', '  PostToolUse: []', '---', '')).toMatchObject({ line: 5, column: 15 })
  })

  it('an unclosed { mapping: the line that opens it, also as the last line', () => {
    expect(reported('---', 'name: x', 'description: y', 'mcpServers:', '  - {name: github', 'model: sonnet', '---', '')).toMatchObject({ line: 5, column: 5 })
    expect(reported('---', 'name: x', 'description: y', 'mcpServers:', '  - {name: github', '---', '')).toMatchObject({ line: 5, column: 5 })
  })

  it('an unclosed quote: the line where the quote opens', () => {
    expect(reported('---', 'name: x', 'description: "Reviews code', 'model: sonnet', '---', '')).toMatchObject({ line: 3, column: 14 })
    expect(reported('---', 'name: x', 'description: y', 'hooks:', "  cmd: 'echo", '  other: 1', '---', '')).toMatchObject({ line: 5, column: 8 })
  })

  it('tab indentation where tabs cannot be read as spaces: the line with the tab', () => {
    expect(reported('---', 'name: x', 'description: y', '\tmodel: sonnet', '---', '')).toMatchObject({ line: 4, column: 1 })
  })

  it('a missing colon: the line without it, in the middle or at the end', () => {
    const at = reported('---', 'name: x', 'description: y', 'model sonnet', 'color: blue', '---', '')
    expect(at).toMatchObject({ line: 4, column: 1 })
    expect(at.message).toContain('line 4 has no `:`')
    expect(reported('---', 'name: x', 'description: y', 'model sonnet', '---', '')).toMatchObject({ line: 4, column: 1 })
  })

  it('keeps the positions that were already right', () => {
    // A description running on at column 0 is wrong where it runs on; a duplicate key at the second one.
    expect(reported('---', 'name: a', 'description: first', '<example>', 'more', '</example>', '---', '')).toMatchObject({ line: 4, column: 1 })
    expect(reported('---', 'name: x', 'description: y', 'hooks:', '  PreToolUse: [a]]', '---', '')).toMatchObject({ line: 5, column: 18 })
  })
})
