// Text contrast of the renderer's theme, computed from src/renderer/src/styles/theme.css itself: every text
// token against every surface it is drawn on, in light and dark, at WCAG AA (4.5:1 for normal text). A token
// changed to something too faint fails here with the pair and its ratio.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const css = readFileSync(join(__dirname, '../src/renderer/src/styles/theme.css'), 'utf8')

/** The custom properties declared in the first rule whose selector is exactly `selector`. */
function block(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`)
  if (start < 0) throw new Error(`theme.css has no rule for ${selector}`)
  const body = css.slice(start, css.indexOf('}', start))
  return Object.fromEntries([...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]))
}

const light = block(':root')
// The dark theme overrides some of the light declarations; the rest apply to both.
const dark = { ...light, ...block(":root[data-theme='dark']") }

function resolve(vars: Record<string, string>, name: string, seen: string[] = []): string {
  const value = vars[name]
  if (value === undefined) throw new Error(`${name} is not defined`)
  const ref = /^var\((--[\w-]+)\)$/.exec(value)
  if (ref) {
    if (seen.includes(ref[1])) throw new Error(`${name} refers to itself`)
    return resolve(vars, ref[1], [...seen, name])
  }
  if (!/^#[0-9a-f]{6}$/i.test(value)) throw new Error(`${name} is ${value}: this test reads #rrggbb colours only`)
  return value
}

/** WCAG 2 relative luminance of an sRGB colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi + 0.05) / (lo + 0.05)
}

/** Where text sits: the page, the sidebar, cards and dialogs, the panes' tinted ground, code blocks. */
const SURFACES = ['--bg', '--bg-sidebar', '--bg-elevated', '--bg-subtle', '--bg-code', '--bg-input']
/** Plus hovered and selected rows, where the secondary text of a list item still has to read. */
const ROWS = [...SURFACES, '--bg-hover', '--bg-active']
// Every agent colour (--agent-green, the bright one for bars and dots) has a text variant, --agent-green-text.
const agentColors = Object.keys(light).filter((k) => /^--agent-[a-z]+$/.test(k))
const agentText = agentColors.map((c) => `${c}-text`)
const syntax = ['--hl-keyword', '--hl-string', '--hl-number', '--hl-comment', '--hl-title', '--hl-attr', '--hl-built']

const PAIRS: Array<{ what: string; text: string[]; on: string[] }> = [
  { what: 'body, secondary and faint text (hints, durations, file names, labels)', text: ['--text', '--text-muted', '--text-faint'], on: ROWS },
  // Also on hovered and selected rows: a library entry that failed to load, or is shadowed, keeps its red or
  // amber line when it is the one open.
  { what: 'status words (Running, Needs permission, Done, Failed)', text: ['--st-running', '--st-waiting', '--st-done', '--st-failed'], on: ROWS },
  { what: 'a status word on its own tint (banners, the unsaved tag)', text: ['--st-waiting'], on: ['--st-waiting-soft'] },
  { what: 'a status word on its own tint (banners, the unsaved tag)', text: ['--st-failed'], on: ['--st-failed-soft'] },
  { what: 'text on a status fill (the permissions badge, a Delete button)', text: ['--st-fg'], on: ['--st-waiting', '--st-done', '--st-failed'] },
  { what: 'agent type names in their colour, also on hovered and selected rows', text: agentText, on: ROWS },
  { what: 'links, ghost buttons and chosen options', text: ['--accent'], on: [...SURFACES, '--accent-soft'] },
  { what: 'primary buttons, resting and hovered', text: ['--accent-fg'], on: ['--accent-bg', '--accent-hover'] },
  { what: 'syntax colours in code blocks', text: syntax, on: ['--bg-code'] },
  { what: 'added and removed lines of a diff', text: ['--hl-add'], on: ['--hl-add-bg'] },
  { what: 'added and removed lines of a diff', text: ['--hl-del'], on: ['--hl-del-bg'] }
]

describe.each([
  ['light', light],
  ['dark', dark]
] as const)('%s theme text contrast', (_, vars) => {
  it.each(PAIRS.map((p) => [p.what, p] as const))('%s: at least 4.5:1', (__, pair) => {
    const failing: string[] = []
    for (const text of pair.text) {
      for (const on of pair.on) {
        const ratio = contrast(resolve(vars, text), resolve(vars, on))
        if (ratio < 4.5) failing.push(`${text} ${resolve(vars, text)} on ${on} ${resolve(vars, on)}: ${ratio.toFixed(2)}:1`)
      }
    }
    expect(failing).toEqual([])
  })
})

describe('the theme file as read', () => {
  it('has the nine agent colours and a dark block overriding the light one', () => {
    expect(agentColors).toEqual([
      '--agent-main',
      '--agent-red',
      '--agent-orange',
      '--agent-yellow',
      '--agent-green',
      '--agent-cyan',
      '--agent-blue',
      '--agent-purple',
      '--agent-pink'
    ])
    expect(dark['--bg']).not.toBe(light['--bg'])
  })
})

describe('contrast()', () => {
  it('matches known WCAG ratios', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrast('#ffffff', '#ffffff')).toBe(1)
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2) // the lightest grey that passes on white
  })
})
