// A page's problems as they happen, for a spec's `toEqual([])` and for the UI bench's report.
import type { Page } from '@playwright/test'

/** The page's uncaught errors as they happen (console errors too with `console: true`), for `toEqual([])`. */
export function watchProblems(page: Page, { console = false } = {}): string[] {
  const problems: string[] = []
  if (console) page.on('console', (m) => m.type() === 'error' && problems.push(m.text()))
  page.on('pageerror', (e) => problems.push(e.message))
  return problems
}
