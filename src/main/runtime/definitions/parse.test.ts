import { describe, expect, it } from 'vitest'
import { parseAgentMarkdown } from './parse'

const F = '/p/.claude/agents/a.md'
const parse = (text: string, opts = {}) => parseAgentMarkdown(text, F, 'project', opts)
const codes = (r: { diagnostics: { code: string }[] }) => r.diagnostics.map((d) => d.code)

describe('parseAgentMarkdown: what loads', () => {
  it('reads every documented field', () => {
    const r = parse(`---
name: reviewer
description: Reviews code
tools: [Read, "Bash(git:*)", mcp__gh__*]
disallowedTools: Write, Edit
model: Inherit
color: blue
forkContext: "true"
permissionMode: plan
background: false
memory: project
isolation: worktree
skills: a, b
maxTurns: "12"
effort: high
mcpServers: [github, {local: {command: x}}]
hooks: {PreToolUse: []}
initialPrompt: Start here
criticalSystemReminder_EXPERIMENTAL: Stay read-only
omitClaudeMd: true
---
You review.
`)
    expect(r.diagnostics).toEqual([])
    expect(r.definition).toMatchObject({
      agentType: 'reviewer',
      whenToUse: 'Reviews code',
      tools: ['Read', 'Bash(git:*)', 'mcp__gh__*'],
      disallowedTools: ['Write', 'Edit'],
      model: 'inherit',
      color: 'blue',
      forkContext: true,
      permissionMode: 'plan',
      background: false,
      memory: 'project',
      isolation: 'worktree',
      skills: ['a', 'b'],
      maxTurns: 12,
      effort: 'high',
      mcpServers: ['github', { local: { command: 'x' } }],
      hooks: { PreToolUse: [] },
      initialPrompt: 'Start here',
      criticalSystemReminder: 'Stay read-only',
      omitClaudeMd: true,
      systemPrompt: 'You review.',
      source: 'project',
      file: F,
      extra: {}
    })
  })

  it('handles CRLF, a BOM, comments, anchors, block and folded scalars', () => {
    const text =
      '\uFEFF---\r\n# a comment\r\nname: x # trailing comment\r\ndefaults: &d\r\n  - Read\r\ntools: *d\r\ndescription: >\r\n  Folded\r\n  text\r\ninitialPrompt: |\r\n  line 1\r\n  line 2\r\n---\r\nPrompt\r\n'
    const r = parse(text)
    expect(r.definition).toMatchObject({
      agentType: 'x',
      whenToUse: 'Folded text\n',
      tools: ['Read'],
      initialPrompt: 'line 1\nline 2\n',
      systemPrompt: 'Prompt'
    })
    expect(r.definition?.extra).toEqual({ defaults: ['Read'] })
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'unknown-key', severity: 'info', line: 4, column: 1 })])
  })

  it('turns \\n escapes in descriptions into line breaks, as Claude Code does', () => {
    expect(parse('---\nname: a\ndescription: one\\ntwo\n---\n').definition?.whenToUse).toBe('one\ntwo')
  })

  it('keeps unknown keys in extra, reports them as info, and suggests what a near miss meant', () => {
    const r = parse('---\nname: a\ndescription: b\ncategory: qa\nallowed-tools: Read\n---\n')
    expect(r.definition?.extra).toEqual({ category: 'qa', 'allowed-tools': 'Read' })
    expect(r.definition?.tools).toBeUndefined()
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ severity: 'info', code: 'unknown-key', line: 4, column: 1 }),
      expect.objectContaining({ severity: 'warning', code: 'unknown-key', line: 5, message: expect.stringContaining('did you mean `tools`') })
    ])
  })

  it('repairs invalid YAML the way Claude Code does, with a warning at each repaired value', () => {
    const r = parse('---\nname: a\ndescription: Use it. Examples: Context: x\\nuser: "y"\ntools: Read\n---\nBody')
    expect(r.definition).toMatchObject({ whenToUse: 'Use it. Examples: Context: x\nuser: "y"', tools: ['Read'] })
    expect(r.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'yaml-repaired', line: 3, column: 14 })])
  })

  it('repairs CRLF files too (Claude Code does not, because its line regex stops at \\r)', () => {
    const r = parse('---\r\nname: a\r\ndescription: x: y\r\n---\r\n')
    expect(r.definition?.whenToUse).toBe('x: y')
  })

  it('drops an invalid field value with a warning, keeping the raw value in frontmatter', () => {
    const r = parse('---\nname: a\ndescription: b\ncolor: gold\nmaxTurns: -3\npermissionMode: yolo\nmodel: gpt\n---\n')
    expect(r.definition?.color).toBeUndefined()
    expect(r.definition?.maxTurns).toBeUndefined()
    expect(r.definition?.permissionMode).toBeUndefined()
    expect(r.definition?.model).toBe('gpt')
    expect(r.definition?.frontmatter).toMatchObject({ color: 'gold', maxTurns: -3 })
    expect(r.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ['invalid-field', 4, 8],
      ['invalid-field', 5, 11],
      ['invalid-field', 6, 17],
      ['unknown-model', 7, 8]
    ])
    expect(r.diagnostics[0].message).toBe('`color` should be one of red, blue, green, yellow, purple, orange, pink, cyan, but is "gold"; the field is ignored')
  })

  it('normalises tools: `*` means all tools, empty means all tools (said), non-text entries dropped (said)', () => {
    expect(parse('---\nname: a\ndescription: b\ntools: "*"\n---\n').definition?.tools).toEqual(['*'])
    expect(parse('---\nname: a\ndescription: b\ntools: Read, *\n---\n')).toMatchObject({ definition: { tools: ['*'] } })
    const empty = parse('---\nname: a\ndescription: b\ntools: ""\n---\n')
    expect(empty.definition?.tools).toEqual([])
    expect(codes(empty)).toEqual(['empty-tools'])
    const mixed = parse('---\nname: a\ndescription: b\ntools: [Read, 42]\n---\n')
    expect(mixed.definition?.tools).toEqual(['Read'])
    expect(codes(mixed)).toEqual(['invalid-tool-name'])
  })

  it('substitutes placeholders in the prompt', () => {
    const r = parse('---\nname: a\ndescription: b\n---\nDocs in {{FANOUT_DOCS_DIR}}; {{OTHER}} stays.', { placeholders: { FANOUT_DOCS_DIR: '/d' } })
    expect(r.definition?.systemPrompt).toBe('Docs in /d; {{OTHER}} stays.')
  })
})

describe('parseAgentMarkdown: what is skipped, and the reason given', () => {
  const skipped = (text: string, code: string, line: number, column: number) => {
    const r = parse(text)
    expect(r.definition).toBeUndefined()
    expect(r.diagnostics).toContainEqual(expect.objectContaining({ file: F, severity: 'error', code, line, column }))
    expect(r.diagnostics.find((d) => d.code === code)?.message).toMatch(/the agent is not loaded$/)
  }

  it('skips what Claude Code skips', () => {
    skipped('# Just markdown\n', 'no-frontmatter', 1, 1)
    skipped('---\nname: a\ndescription: b\n', 'unterminated-frontmatter', 1, 1)
    skipped('---\ndescription: b\n---\n', 'missing-name', 2, 1)
    skipped('---\nname: a\n---\n', 'missing-description', 2, 1)
    skipped('---\nname: plug:a\ndescription: b\n---\n', 'name-has-colon', 2, 7)
    skipped('---\nname: 42\ndescription: b\n---\n', 'invalid-name', 2, 7)
    skipped('---\nname: a\ndescription: [x]\n---\n', 'invalid-description', 3, 14)
    skipped('---\n- a\n- b\n---\n', 'frontmatter-not-mapping', 2, 1)
    skipped('---\nname: a\ndescription: first\n<example>\nmore\n</example>\n---\n', 'invalid-yaml', 4, 1)
  })

  it('loads what Claude Code 2.1.328 loads though it is not valid YAML, with a warning at the line: a key written twice (the last wins), tab indentation', () => {
    const twice = parse('---\nname: a\ndescription: b\nname: c\n---\n')
    expect(twice.definition?.agentType).toBe('c')
    expect(twice.diagnostics).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        code: 'duplicate-key',
        line: 4,
        column: 1,
        message: expect.stringContaining('`name` is written twice; the last one is used, as Claude Code does')
      })
    )
    const tabs = parse('---\nname: a\ndescription: b\ntools:\n\t- Read\n\t- Grep\n---\n')
    expect(tabs.definition?.tools).toEqual(['Read', 'Grep'])
    expect(tabs.diagnostics.filter((d) => d.code === 'yaml-repaired').map((d) => [d.line, d.severity])).toEqual([
      [5, 'warning'],
      [6, 'warning']
    ])
  })

  it('gives the fix that fits why a name or description is not text: quotes only where quoting fixes it', () => {
    const message = (text: string, code: string) => {
      const r = parse(text)
      expect(r.definition).toBeUndefined()
      const d = r.diagnostics.find((x) => x.code === code)
      expect(d, `${code} for ${JSON.stringify(text)}`).toBeDefined()
      return d!.message
    }
    // Empty, however it is written: nothing to quote; say what to write.
    for (const empty of ['description:', 'description: ""', "description: ''", 'description: ~', 'description: |\n']) {
      const m = message(`---\nname: a\n${empty}\n---\n`, 'empty-description')
      expect(m).toBe('`description` is empty: it tells the parent agent when to use this one; write that after `description:`; the agent is not loaded')
      expect(m).not.toMatch(/quote/)
    }
    expect(message('---\nname: ""\ndescription: b\n---\n', 'empty-name')).toBe(
      '`name` is empty: it is the agent type the main agent asks for; write it after `name:`, e.g. `name: code-reviewer`; the agent is not loaded'
    )
    skipped('---\nname: a\ndescription:\n---\n', 'empty-description', 3, 13) // where the text goes
    // A number or true/false: quoting gives the text that was meant.
    expect(message('---\nname: a\ndescription: 42\n---\n', 'invalid-description')).toMatch(
      /^`description` should be text, but YAML reads 42 as a number; put it in quotes to keep it as text;/
    )
    expect(message('---\nname: true\ndescription: b\n---\n', 'invalid-name')).toMatch(
      /^`name` should be text, but YAML reads true as a true\/false value; put it in quotes/
    )
    // A list or nested lines: say what it is; quotes only for the brackets, a block for the lines.
    expect(message('---\nname: a\ndescription: [x, y]\n---\n', 'invalid-description')).toMatch(
      /^`description` should be text, but is a list \(\["x","y"\]\); write it as one text, in quotes if it starts with `\[` or `-`;/
    )
    expect(message('---\nname: a\ndescription:\n  Use when: ready\n---\n', 'invalid-description')).toMatch(
      /is a set of `key: value` lines .*write it as a block \(`description: \|`\)/
    )
    expect(message('---\nname:\n  a: b\ndescription: b\n---\n', 'invalid-name')).toMatch(/write the name on the line of `name:`/)
  })

  it('refuses files and frontmatter that are too large', () => {
    skipped(`---\nname: a\ndescription: b\n---\n${'x'.repeat(1024 * 1024)}`, 'file-too-large', 1, 1)
    skipped(`---\nname: a\ndescription: ${'x'.repeat(100_000)}\n---\n`, 'frontmatter-too-large', 2, 1)
  })

  it('warns when the frontmatter is closed by --- in the middle of a line', () => {
    const r = parse('---\nname: a\ndescription: b --- c\n---\n')
    expect(r.definition?.whenToUse).toBe('b')
    expect(r.diagnostics).toContainEqual(expect.objectContaining({ code: 'frontmatter-closed-mid-line', line: 3, column: 16 }))
  })
})

describe('parseAgentMarkdown: plugin agents', () => {
  const plug = (text: string, file = '/plug/agents/sub/rev.md') => parseAgentMarkdown(text, file, 'plugin', { plugin: 'tools', namespace: ['sub'] })

  it('namespaces plugin:sub:name', () => {
    expect(plug('---\nname: rev\ndescription: d\n---\n').definition?.agentType).toBe('tools:sub:rev')
  })

  it('falls back to the file name and the first line of prose, as Claude Code does', () => {
    const r = plug('# Reviewer\n\nReviews pull requests.\n')
    expect(r.definition).toMatchObject({ agentType: 'tools:sub:rev', whenToUse: 'Reviews pull requests.', plugin: 'tools' })
  })

  it('ignores permissionMode, hooks and mcpServers from plugins, with a warning', () => {
    const r = plug('---\nname: rev\ndescription: d\npermissionMode: bypassPermissions\nhooks: {}\n---\n')
    expect(r.definition?.permissionMode).toBeUndefined()
    expect(r.definition?.hooks).toBeUndefined()
    expect(codes(r)).toEqual(['plugin-forbidden', 'plugin-forbidden'])
  })
})

describe('parseAgentMarkdown: hostile keys', () => {
  it('keeps __proto__ and constructor as ordinary unknown keys and tool names', () => {
    const r = parse('---\nname: a\ndescription: b\n__proto__: {polluted: true}\nconstructor: x\ntools: constructor, toString\n---\n')
    expect(Object.getPrototypeOf(r.definition?.extra)).toBe(Object.prototype)
    expect(Object.keys(r.definition?.extra ?? {})).toEqual(['__proto__', 'constructor'])
    expect((r.definition?.extra as Record<string, unknown>).polluted).toBeUndefined()
    expect(r.definition?.tools).toEqual(['constructor', 'toString'])
    expect(r.diagnostics.map((d) => d.code)).toEqual(['unknown-key', 'unknown-key'])
  })
})
