// Shortcut notation (`Mod+K`, `Alt+N`, `Mod+Shift+F`, `?`): matching a key press, and the label a person reads
// (⌘K on macOS, Ctrl+K elsewhere). Letters match by physical key (KeyboardEvent.code), so Alt+N works on a Mac,
// where Option+N types a character, and on any layout; punctuation matches by the character typed.

export interface Combo {
  mod: boolean
  alt: boolean
  shift: boolean
  key: string
}

export function parseCombo(keys: string): Combo {
  const parts = keys.split('+')
  // A trailing "+" stands for the key itself ("Mod++").
  const key = keys.endsWith('++') ? '+' : parts[parts.length - 1]
  const mods = new Set(parts.slice(0, keys.endsWith('++') ? -2 : -1))
  return { mod: mods.has('Mod'), alt: mods.has('Alt'), shift: mods.has('Shift'), key }
}

export const isMac = (): boolean => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)

interface KeyLike {
  key: string
  code: string
  metaKey: boolean
  ctrlKey: boolean
  altKey: boolean
  shiftKey: boolean
}

/** Whether a key press is this shortcut. A punctuation key's Shift is part of the character (`?`), not checked. */
export function matchesCombo(e: KeyLike, keys: string, mac = isMac()): boolean {
  const c = parseCombo(keys)
  const mod = mac ? e.metaKey : e.ctrlKey
  const otherMod = mac ? e.ctrlKey : e.metaKey
  if (c.mod !== mod || otherMod || c.alt !== e.altKey) return false
  if (/^[A-Za-z]$/.test(c.key)) return c.shift === e.shiftKey && e.code === `Key${c.key.toUpperCase()}`
  if (/^[0-9]$/.test(c.key)) return c.shift === e.shiftKey && e.code === `Digit${c.key}`
  if (c.key.length === 1) return e.key === c.key || (c.key === ',' && e.code === 'Comma') || (c.key === '.' && e.code === 'Period')
  return c.shift === e.shiftKey && e.key === c.key
}

/** Only a modifier-free key (`?`) is for typing as well: it must not fire while a text field has focus. */
export function needsModifier(keys: string): boolean {
  const c = parseCombo(keys)
  return !c.mod && !c.alt
}

const MAC_NAMES: Record<string, string> = { Mod: '⌘', Alt: '⌥', Shift: '⇧' }

/** `Mod+Shift+F` as ⇧⌘F on a Mac, Ctrl+Shift+F elsewhere; arrows as arrows. */
export function keyLabel(keys: string, mac = isMac()): string {
  const c = parseCombo(keys)
  const key =
    ({ ArrowUp: '↑', ArrowDown: '↓', ArrowLeft: '←', ArrowRight: '→', Escape: 'Esc', Enter: mac ? '↩' : 'Enter' } as Record<string, string>)[c.key] ??
    (c.key.length === 1 ? c.key.toUpperCase() : c.key)
  if (mac)
    return `${c.alt ? MAC_NAMES.Alt : ''}${c.shift && c.key.length > 1 ? MAC_NAMES.Shift : c.shift && /^[A-Za-z0-9]$/.test(c.key) ? MAC_NAMES.Shift : ''}${c.mod ? MAC_NAMES.Mod : ''}${key}`
  return [c.mod ? 'Ctrl' : '', c.alt ? 'Alt' : '', c.shift && (c.key.length > 1 || /^[A-Za-z0-9]$/.test(c.key)) ? 'Shift' : '', key].filter(Boolean).join('+')
}
