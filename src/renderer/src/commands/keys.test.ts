import { describe, expect, it } from 'vitest'
import { keyLabel, matchesCombo, needsModifier } from './keys'

const press = (over: Partial<{ key: string; code: string; metaKey: boolean; ctrlKey: boolean; altKey: boolean; shiftKey: boolean }>) => ({
  key: '',
  code: '',
  metaKey: false,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  ...over
})

describe('shortcut keys', () => {
  it('Mod is Cmd on a Mac and Ctrl elsewhere, never both', () => {
    expect(matchesCombo(press({ key: 'k', code: 'KeyK', ctrlKey: true }), 'Mod+K', false)).toBe(true)
    expect(matchesCombo(press({ key: 'k', code: 'KeyK', metaKey: true }), 'Mod+K', true)).toBe(true)
    expect(matchesCombo(press({ key: 'k', code: 'KeyK', metaKey: true }), 'Mod+K', false)).toBe(false)
    expect(matchesCombo(press({ key: 'k', code: 'KeyK', ctrlKey: true, metaKey: true }), 'Mod+K', true)).toBe(false)
    expect(matchesCombo(press({ key: 'k', code: 'KeyK' }), 'Mod+K', false)).toBe(false)
  })

  it('letters match by physical key, so Option+N on a Mac (which types ˜) is Alt+N', () => {
    expect(matchesCombo(press({ key: '˜', code: 'KeyN', altKey: true }), 'Alt+N', true)).toBe(true)
    expect(matchesCombo(press({ key: 'N', code: 'KeyN', altKey: true, shiftKey: true }), 'Alt+N', false)).toBe(false)
    expect(matchesCombo(press({ key: 'F', code: 'KeyF', ctrlKey: true, shiftKey: true }), 'Mod+Shift+F', false)).toBe(true)
  })

  it('punctuation matches the character typed, whatever Shift it took', () => {
    expect(matchesCombo(press({ key: '?', code: 'Slash', shiftKey: true }), '?', false)).toBe(true)
    expect(matchesCombo(press({ key: '/', code: 'Slash' }), '?', false)).toBe(false)
    expect(matchesCombo(press({ key: ',', code: 'Comma', ctrlKey: true }), 'Mod+,', false)).toBe(true)
    expect(matchesCombo(press({ key: '?', code: 'Slash', shiftKey: true, ctrlKey: true }), '?', false)).toBe(false)
  })

  it('reads as the platform writes it', () => {
    expect(keyLabel('Mod+K', true)).toBe('⌘K')
    expect(keyLabel('Mod+K', false)).toBe('Ctrl+K')
    expect(keyLabel('Mod+Shift+F', true)).toBe('⇧⌘F')
    expect(keyLabel('Mod+Shift+F', false)).toBe('Ctrl+Shift+F')
    expect(keyLabel('Alt+N', true)).toBe('⌥N')
    expect(keyLabel('Alt+N', false)).toBe('Alt+N')
    expect(keyLabel('?', false)).toBe('?')
    expect(keyLabel('Mod+,', false)).toBe('Ctrl+,')
    expect(needsModifier('?')).toBe(true)
    expect(needsModifier('Alt+J')).toBe(false)
  })
})
