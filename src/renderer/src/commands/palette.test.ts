import { describe, expect, it } from 'vitest'
import { matchEntries } from './palette'

const e = (title: string, words = '') => ({ title, words })

describe('the palette’s matching', () => {
  it('finds by every word in any order, the title itself first, shorter titles before longer', () => {
    const list = [e('Overview density: compact tiles'), e('Overview density: tiles'), e('Stop code-reviewer (Review the lexer)', 'agent halt'), e('Settings')]
    expect(matchEntries(list, 'Overview density: tiles')[0].title).toBe('Overview density: tiles')
    expect(matchEntries(list, 'tiles density').map((x) => x.title)).toEqual(['Overview density: tiles', 'Overview density: compact tiles'])
    expect(matchEntries(list, 'halt lexer').map((x) => x.title)).toEqual(['Stop code-reviewer (Review the lexer)'])
    expect(matchEntries(list, 'set')[0].title).toBe('Settings')
    expect(matchEntries(list, 'nothing like this')).toEqual([])
    expect(matchEntries(list, '  ')).toHaveLength(4)
  })
})
