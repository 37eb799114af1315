import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { matchKeyValueLine, quoteProblematicValues } from './recover'

describe('matchKeyValueLine (Claude Code: /^([a-zA-Z_-]+):\\s+(.+)$/)', () => {
  it('agrees with the regex on ordinary and odd lines', () => {
    const regex = /^([a-zA-Z_-]+):\s+(.+)$/
    const lines = [
      'description: a: b',
      'tools: Read',
      'x:y',
      'key:',
      'key:   ',
      '  indented: a',
      'key2: a',
      'a-b_c: \t v',
      'k: a\rb',
      'k:\r v',
      '- item',
      'k: v '
    ]
    for (const line of lines) {
      const m = regex.exec(line)
      const mine = matchKeyValueLine(line)
      if (!m || /^\s*$/.test(m[2])) expect(mine, line).toBeUndefined()
      else expect(mine && [mine.key, mine.value], line).toEqual([m[1], m[2]])
    }
  })
})

describe('quoteProblematicValues', () => {
  it('quotes unquoted one-line values with YAML indicators, escaping \\ and "', () => {
    const yaml = 'name: x\ndescription: Use it. Examples: <example>user: "hi"\\n</example>\ntools: Read, Grep\n'
    const { text, quoted } = quoteProblematicValues(yaml)
    expect(quoted).toEqual([{ index: 1, key: 'description', valueColumn: 13, trigger: ': ' }])
    expect(parse(text).description).toBe('Use it. Examples: <example>user: "hi"\\n</example>')
  })

  it('leaves quoted values, indented lines and harmless values alone', () => {
    const yaml = 'a: "x: y"\nb: \'x: y\'\n  c: d: e\nd: plain words\n'
    expect(quoteProblematicValues(yaml)).toEqual({ text: yaml, quoted: [] })
  })

  it('changes the meaning of a trailing comment, exactly as Claude Code does', () => {
    const { text } = quoteProblematicValues('model: sonnet # fast\n')
    expect(parse(text).model).toBe('sonnet # fast')
  })
})
