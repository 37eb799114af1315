// Light or dark: Settings → Theme (System, Light, Dark) decides, System following the OS. The choice is
// kept in settings.json and, for the first paint before the host answers, in localStorage.
import type { ThemeChoice } from '../../../shared/settings-fields'

const KEY = 'fanout.theme'
let choice: ThemeChoice = 'system'
let media: MediaQueryList | null = null

function resolved(): 'light' | 'dark' {
  if (choice !== 'system') return choice
  return media?.matches ? 'dark' : 'light'
}

function paint(): void {
  document.documentElement.dataset.theme = resolved()
}

/** Sets the theme now and remembers it for the next start. */
export function applyTheme(next: ThemeChoice): void {
  choice = next
  try {
    localStorage.setItem(KEY, next)
  } catch {
    // storage can be unavailable (private windows); the setting still applies
  }
  paint()
}

/** Paints the remembered theme before anything renders, and follows the OS while the choice is System. */
export function startTheme(): void {
  media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null
  media?.addEventListener('change', paint)
  const saved = remembered()
  choice = saved === 'light' || saved === 'dark' ? saved : 'system'
  paint()
}

function remembered(): string | null {
  try {
    return localStorage.getItem(KEY)
  } catch {
    return null
  }
}
