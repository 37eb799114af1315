import { describe, expect, it } from 'vitest'
import type { FieldChange } from '../../../shared/agent-editor'
import { parseAgentMarkdown } from '../definitions/parse'
import { applyFieldChanges } from './edit-fields'

const FILE = `---
name: reviewer   # shown in the listing
description: "Reviews code: correctness and errors"
# tools the reviewer needs
tools:
  - Read
  - Grep
color: 'blue'
x-team: platform   # not an agent field
hooks:
  PreToolUse:
    - matcher: Bash
model: sonnet
---

You review code.
`

function edit(text: string, ...changes: FieldChange[]): string {
  const r = applyFieldChanges(text, changes)
  if (!r.ok) throw new Error(r.message)
  return r.text
}

const read = (text: string) => parseAgentMarkdown(text, '/p/.claude/agents/a.md', 'project').definition!

describe('applyFieldChanges', () => {
  it('changes one value in place, keeping its comment and every other line', () => {
    const out = edit(FILE, { key: 'name', value: 'critic' })
    expect(out).toBe(FILE.replace('name: reviewer   #', 'name: critic   #'))
  })

  it('keeps the quoting style a value was written in', () => {
    expect(edit(FILE, { key: 'color', value: 'red' })).toContain("color: 'red'\n")
    expect(edit(FILE, { key: 'description', value: 'Checks code: style' })).toContain('description: "Checks code: style"\n')
  })

  it('writes a multi-line description with <example> blocks as a block scalar that reads back exactly', () => {
    const description = 'Use after changes.\n<example>\nuser: "review this"\nassistant: "I will use reviewer"\n</example>'
    const out = edit(FILE, { key: 'description', value: description })
    expect(out).toContain('description: |-\n  Use after changes.\n  <example>\n')
    expect(read(out).whenToUse).toBe(description)
  })

  it('writes a new one-line description with ": " as a block scalar, so Claude Code never has to repair it', () => {
    const text = '---\nname: a\n---\nBody\n'
    const out = edit(text, { key: 'description', value: 'Examples: <example>user: hi</example>' })
    expect(out).toBe('---\nname: a\ndescription: |-\n  Examples: <example>user: hi</example>\n---\nBody\n')
    expect(parseAgentMarkdown(out, 'a.md', 'project').diagnostics).toEqual([])
  })

  it('keeps a YAML list a list, and a comma-separated list comma-separated', () => {
    const out = edit(FILE, { key: 'tools', value: ['Read', 'Grep', 'Bash(git:*)'] })
    expect(out).toContain('tools:\n  - Read\n  - Grep\n  - Bash(git:*)\ncolor:')
    const flat = '---\nname: a\ndescription: b\ntools: Read,Grep\n---\n'
    expect(edit(flat, { key: 'tools', value: ['Read', 'Glob'] })).toBe('---\nname: a\ndescription: b\ntools: Read,Glob\n---\n')
    const flow = '---\nname: a\ndescription: b\ntools: [Read, Grep]\n---\n'
    expect(edit(flow, { key: 'tools', value: ['Read'] })).toBe('---\nname: a\ndescription: b\ntools: [Read]\n---\n')
  })

  it('adds a new key after the fields that come before it in the form, leaving the rest alone', () => {
    const out = edit(FILE, { key: 'disallowedTools', value: ['Write'] })
    expect(out).toContain('  - Grep\ndisallowedTools: Write\ncolor:')
    const added = edit(FILE, { key: 'maxTurns', value: 12 }, { key: 'background', value: true })
    expect(added.endsWith('model: sonnet\nmaxTurns: 12\nbackground: true\n---\n\nYou review code.\n')).toBe(true)
    expect(read(added)).toMatchObject({ maxTurns: 12, background: true })
  })

  it('removes a key with all its lines', () => {
    expect(edit(FILE, { key: 'tools', value: null })).toContain('# tools the reviewer needs\ncolor:')
    expect(edit(FILE, { key: 'hooks', value: null })).toContain('not an agent field\nmodel: sonnet')
  })

  it('leaves the text untouched when the value is what the field already shows', () => {
    expect(edit(FILE, { key: 'tools', value: ['Read', 'Grep'] }, { key: 'name', value: 'reviewer' }, { key: 'model', value: 'sonnet' })).toBe(FILE)
    const escaped = '---\nname: a\ndescription: One.\\nTwo.\n---\n'
    // The form shows `\n` as a line break (as Claude Code reads it); the same text back changes nothing.
    expect(edit(escaped, { key: 'description', value: 'One.\nTwo.' })).toBe(escaped)
  })

  it('replaces hooks and mcpServers with the YAML typed into their editor, and refuses YAML that is not the right kind', () => {
    const out = edit(FILE, { key: 'hooks', value: 'PostToolUse:\n  - matcher: Edit  # after edits\n    hooks: []' })
    expect(out).toContain('hooks:\n  PostToolUse:\n    - matcher: Edit  # after edits\n      hooks: []\nmodel: sonnet')
    expect(read(out).hooks).toEqual({ PostToolUse: [{ matcher: 'Edit', hooks: [] }] })
    expect(edit(FILE, { key: 'mcpServers', value: '[github]' })).toContain('mcpServers: [github]\n---')
    expect(applyFieldChanges(FILE, [{ key: 'hooks', value: 'PreToolUse: [' }])).toMatchObject({
      ok: false,
      key: 'hooks',
      message: expect.stringContaining('not valid YAML')
    })
    expect(applyFieldChanges(FILE, [{ key: 'hooks', value: '- a\n- b' }])).toMatchObject({
      ok: false,
      key: 'hooks',
      message: expect.stringContaining('a mapping of hook events')
    })
  })

  it('keeps CRLF line endings and a byte order mark', () => {
    const crlf = '\uFEFF---\r\nname: a\r\ndescription: b\r\n---\r\nBody\r\n'
    const out = edit(crlf, { key: 'description', value: 'two\nlines' }, { key: 'model', value: 'haiku' })
    expect(out).toBe('\uFEFF---\r\nname: a\r\ndescription: |-\r\n  two\r\n  lines\r\nmodel: haiku\r\n---\r\nBody\r\n')
  })

  it('writes values that look like other types as strings', () => {
    const out = edit('---\nname: a\ndescription: b\n---\n', { key: 'name', value: '123' }, { key: 'model', value: 'true' })
    expect(read(out)).toMatchObject({ agentType: '123', model: 'true' })
  })

  it("edits a file that loads only after Claude Code's quoting by making that repair first; refuses what it cannot edit safely", () => {
    const broken = '---\nname: a\ndescription: Use when: things\n---\n'
    expect(applyFieldChanges(broken, [{ key: 'model', value: 'opus' }])).toEqual({
      ok: true,
      text: '---\nname: a\ndescription: "Use when: things"\nmodel: opus\n---\n',
      repaired: [expect.stringMatching(/^Line 3: /)]
    })
    // Re-applying the values it already has changes nothing, not even the quotes.
    expect(applyFieldChanges(broken, [{ key: 'description', value: 'Use when: things' }])).toEqual({ ok: true, text: broken })
    expect(applyFieldChanges('# no frontmatter\n', [{ key: 'model', value: 'opus' }])).toMatchObject({
      ok: false,
      message: expect.stringContaining('no frontmatter')
    })
    expect(applyFieldChanges('---\n{name: a, description: b}\n---\n', [{ key: 'model', value: 'opus' }])).toMatchObject({
      ok: false,
      message: expect.stringContaining('{ ... }')
    })
  })

  it('adds the first key to an empty frontmatter', () => {
    expect(edit('---\n---\nBody\n', { key: 'name', value: 'a' })).toBe('---\nname: a\n---\nBody\n')
  })
})
