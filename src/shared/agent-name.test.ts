import { describe, expect, it } from 'vitest'
import { agentNameProblem } from './agent-name'

describe('agentNameProblem', () => {
  it('accepts names made of letters, digits, - _ and ., and says nothing while empty', () => {
    for (const ok of ['changelog-writer', 'a', 'v2.reviewer', 'test_runner', '  padded  ', '']) expect(agentNameProblem(ok)).toBeNull()
  })

  it('says why a name is refused, with a name that would do', () => {
    expect(agentNameProblem('Changelog Writer')).toBe('A name has no spaces (it is also the file name); use - or _ instead. For example: changelog-writer')
    expect(agentNameProblem('team:lead')).toBe('“:” is kept for plugin agents (plugin:agent); use - instead. For example: team-lead')
    expect(agentNameProblem('-dash')).toBe('A name starts with a letter or a digit. For example: dash')
    expect(agentNameProblem('a/b?')).toBe('“/” “?” cannot be in a name: only letters, digits, - _ and . can. For example: a-b')
    expect(agentNameProblem('x'.repeat(101))).toBe('A name is at most 100 characters; this one has 101.')
  })
})
