import { describe, expect, it } from 'vitest'
import { parseAgentMarkdown } from '../definitions/parse'
import { repairAgentText } from './repair'

const load = (text: string) => parseAgentMarkdown(text, '/p/.claude/agents/helper.md', 'project')

describe('repairAgentText', () => {
  it('quotes a one-line value YAML misreads, exactly as Claude Code reads it, and says where', () => {
    const text = '---\nname: helper\ndescription: Use when: the build fails. Examples: <example>user: "fix"</example>\ntools: Read\n---\nBody\n'
    const before = load(text)
    expect(before.diagnostics.some((d) => d.code === 'yaml-repaired')).toBe(true)
    const fixed = repairAgentText(text, 'helper.md')!
    expect(fixed.changes).toEqual([expect.stringMatching(/^Line 3: the value of `description` contains ": "/)])
    const after = load(fixed.text)
    expect(after.diagnostics).toEqual([])
    expect(after.definition!.whenToUse).toBe(before.definition!.whenToUse)
    expect(fixed.text.split('\n').filter((l, i) => l !== text.split('\n')[i])).toHaveLength(1)
  })

  it('says once what quoting several lines does, naming each line and key', () => {
    const text = '---\nname: helper\ndescription: Use when: the build fails\ncolor: [purple\ntools: Read\nmodel: *fast\n---\nBody\n'
    const fixed = repairAgentText(text, 'helper.md')!
    expect(fixed.changes).toHaveLength(1)
    const [note] = fixed.changes
    expect(note).toMatch(/^Lines 3, 4 and 6: the values of `description`, `color` and `model` contain/)
    expect(note.match(/double quotes/g)).toHaveLength(1)
    expect(load(fixed.text).diagnostics.filter((d) => d.code === 'yaml-repaired')).toEqual([])
  })

  it('turns a description that runs over lines with <example> blocks at column 0 into a block scalar, every line kept', () => {
    const text = [
      '---',
      'name: helper',
      'description: Use this agent when tests fail. Examples:',
      '<example>',
      'Context: the suite is red',
      'user: "the tests fail"',
      'assistant: "I will use helper"',
      '</example>',
      '',
      'tools: Read, Bash',
      'model: haiku',
      '---',
      'You fix tests.',
      ''
    ].join('\n')
    expect(load(text).definition).toBeUndefined() // Claude Code skips this file too
    const fixed = repairAgentText(text, 'helper.md')!
    expect(fixed.changes[0]).toMatch(/^Lines 3-8: the `description` text runs over 6 lines/)
    const def = load(fixed.text).definition!
    expect(def.whenToUse).toBe(
      'Use this agent when tests fail. Examples:\n<example>\nContext: the suite is red\nuser: "the tests fail"\nassistant: "I will use helper"\n</example>'
    )
    expect(def).toMatchObject({ tools: ['Read', 'Bash'], model: 'haiku', systemPrompt: 'You fix tests.' })
  })

  it('closes a frontmatter that was never closed', () => {
    const text = '---\nname: helper\ndescription: Helps.\n\nYou help.\n'
    const fixed = repairAgentText(text, 'helper.md')!
    expect(fixed.text).toBe('---\nname: helper\ndescription: Helps.\n---\n\nYou help.\n')
    expect(load(fixed.text).definition).toMatchObject({ agentType: 'helper', systemPrompt: 'You help.' })
  })

  it('gives a file without frontmatter one, named after the file, described by its first prose line', () => {
    const text = '# Data Engineer\n\n## Overview\nBuilds data pipelines for analytics.\n\nMore text.\n'
    const fixed = repairAgentText(text, '/p/.claude/agents/Data Engineer.md')!
    const def = load(fixed.text).definition!
    expect(def).toMatchObject({ agentType: 'data-engineer', whenToUse: 'Builds data pipelines for analytics.' })
    expect(def.systemPrompt).toBe(text.trim())
  })

  it('keeps CRLF line endings and a byte order mark', () => {
    const text = '\uFEFF---\r\nname: helper\r\ndescription: Use when: x\r\n---\r\nBody\r\n'
    const fixed = repairAgentText(text, 'helper.md')!
    expect(fixed.text).toBe('\uFEFF---\r\nname: helper\r\ndescription: "Use when: x"\r\n---\r\nBody\r\n')
  })

  it('offers nothing for a valid file or a break it cannot mend', () => {
    expect(repairAgentText('---\nname: a\ndescription: b\n---\n', 'a.md')).toBeNull()
    expect(repairAgentText('---\nname: a\nname: b\ndescription: c\n---\n', 'a.md')).toBeNull() // duplicate key: the person decides
    expect(repairAgentText('', 'a.md')).toBeNull()
  })
})
