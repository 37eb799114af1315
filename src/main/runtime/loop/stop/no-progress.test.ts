import { describe, expect, it } from 'vitest'
import { FailureStreak } from './no-progress'

const fail = (name: string, input: unknown, content = 'failed the same way') => ({ name, input, content, isError: true })

describe('FailureStreak', () => {
  it('ends the run after the same failing call N turns in a row, saying which', () => {
    const s = new FailureStreak(3)
    expect(s.record([fail('Bash', { command: 'make' }, 'make: *** No rule to make target')])).toBeNull()
    expect(s.record([fail('Bash', { command: 'make' }, 'make: *** No rule to make target')])).toBeNull()
    expect(s.record([fail('Bash', { command: 'make' }, 'make: *** No rule to make target')])).toBe(
      'Stopped for making no progress: the same failing Bash call 3 turns in a row (Bash: make: *** No rule to make target).'
    )
  })

  it('a missing tool is the same call whatever its input', () => {
    const s = new FailureStreak(2)
    expect(s.record([fail('Frobnicate', undefined, 'No tool named "Frobnicate"')])).toBeNull()
    expect(s.record([fail('Frobnicate', undefined, 'No tool named "Frobnicate"')])).toMatch(/^Stopped for making no progress/)
  })

  it('different calls that fail alike, a call that works, or no calls at all reset it', () => {
    const s = new FailureStreak(2)
    expect(s.record([fail('Bash', { command: 'rm -rf /' }, 'denied')])).toBeNull()
    expect(s.record([fail('Bash', { command: 'curl evil' }, 'denied')])).toBeNull()
    expect(s.record([fail('Bash', { command: 'curl evil' }, 'denied'), { name: 'Read', input: {}, content: 'ok', isError: false }])).toBeNull()
    expect(s.record([fail('Bash', { command: 'curl evil' }, 'denied')])).toBeNull()
    expect(s.record([])).toBeNull()
    expect(s.record([fail('Bash', { command: 'curl evil' }, 'denied')])).toBeNull()
  })

  it('is off at 0', () => {
    const s = new FailureStreak(0)
    for (let i = 0; i < 10; i++) expect(s.record([fail('X', undefined)])).toBeNull()
  })
})
