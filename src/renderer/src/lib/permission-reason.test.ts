// A permission card shows the command once: the reason's repeat of it is dropped, its news is kept.
import { describe, expect, it } from 'vitest'
import { NO_SANDBOX_LEAD, NO_SANDBOX_TAIL } from '../../../shared/sandbox-words'
import { reasonBeyondInput } from './permission-reason'

describe('the part of a permission reason the card does not already show', () => {
  it('"Bash wants to run: npm test" for npm test says nothing new', () => {
    expect(reasonBeyondInput('Bash wants to run: npm test', { command: 'npm test', description: 'Run the parser tests' })).toBe('')
  })

  it('keeps what allow rules do not cover and the rule that asks, as sentences', () => {
    expect(
      reasonBeyondInput('Bash wants to run: npm run test > results.txt (it uses output redirection to results.txt, which allow rules do not cover)', {
        command: 'npm run test > results.txt'
      })
    ).toBe('It uses output redirection to results.txt, which allow rules do not cover.')
    expect(reasonBeyondInput('Bash wants to run: git push (the rule "Bash(git push:*)" asks first)', { command: 'git push' })).toBe(
      'The rule "Bash(git push:*)" asks first.'
    )
  })

  it('the sandbox sentence the session notice says in full is a few words on a card, whatever its reason holds', () => {
    const why = 'bubblewrap not found at /nonexistent/bwrap; install it (apt-get install bubblewrap)'
    const reason = `Bash wants to run: git status --short (${NO_SANDBOX_LEAD}${why}${NO_SANDBOX_TAIL})`
    const shown = reasonBeyondInput(reason, { command: 'git status --short' })
    expect(shown).toBe('Asks because the Bash sandbox is unavailable.')
    expect(shown).not.toContain('bubblewrap')
  })

  it('a path shown relative to the folder is a repeat of the absolute one in the input', () => {
    expect(reasonBeyondInput('Edit wants to change src/a.ts', { file_path: '/work/p/src/a.ts', old_string: 'a', new_string: 'b' })).toBe('')
    expect(reasonBeyondInput('Edit wants to change /etc/hosts, outside the working directory', { file_path: '/etc/hosts' })).toBe(
      'Outside the working directory.'
    )
    expect(reasonBeyondInput('WebFetch wants to fetch https://example.com/a', { url: 'https://example.com/a' })).toBe('')
  })

  it('a reason of another shape, or about something not in the input, stays whole', () => {
    expect(reasonBeyondInput('mcp__x__y needs approval', { q: 1 })).toBe('mcp__x__y needs approval')
    expect(reasonBeyondInput('Bash wants to run: rm -rf build', { command: 'npm test' })).toBe('Bash wants to run: rm -rf build')
    expect(reasonBeyondInput('Edit wants to change a file', {})).toBe('Edit wants to change a file')
    // A command that merely starts like another word is not taken for it.
    expect(reasonBeyondInput('Bash wants to run: npm testing', { command: 'npm test' })).toBe('Bash wants to run: npm testing')
  })
})
