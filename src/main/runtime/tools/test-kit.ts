// Shared by the tool and permission tests: real temp directories and a ToolContext.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import type { ToolContext } from './define-tool'

export function makeTempDir(prefix = 'fanout-tools-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 }) }
}

/**
 * Temporary folders for a test file, one per prefix: new ones for every test (`each`) or one set for the
 * whole file (`all`), removed after; `use` gets them as soon as they are made (to keep or fill them).
 */
export function useTempDirs(when: 'each' | 'all', prefixes: string[], use: (...dirs: string[]) => void): void {
  const cleanups: Array<() => void> = []
  ;(when === 'each' ? beforeEach : beforeAll)(() => {
    const made = prefixes.map((prefix) => makeTempDir(prefix))
    cleanups.push(...made.map((m) => m.cleanup))
    use(...made.map((m) => m.dir))
  })
  ;(when === 'each' ? afterEach : afterAll)(() => cleanups.splice(0).forEach((c) => c()))
}

/**
 * A temporary root (its real path: the runtime compares resolved folders) holding `project/.claude/` and each
 * other folder named, for tests that open a project as the app does. Left for the OS to clear.
 */
export function tempProjectRoot(prefix: string, ...folders: string[]): { root: string; project: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  const project = join(root, 'project')
  for (const dir of [join(project, '.claude'), ...folders.map((f) => join(root, f))]) mkdirSync(dir, { recursive: true })
  return { root, project }
}

/**
 * What a test started and must stop (hosts, servers), pushed as it goes and undone after the test, last
 * first and each awaited; `first` runs before them (e.g. closing shared fixtures).
 */
export function undoAfterEach(first?: () => unknown): Array<() => unknown> {
  const undo: Array<() => unknown> = []
  afterEach(async () => {
    await first?.()
    for (const u of undo.splice(0).reverse()) await u()
  })
  return undo
}

/** Writes files (path → content) under root; optional mtimes (seconds since epoch) for stable ordering. */
export function writeTree(root: string, files: Record<string, string | Buffer>, mtimes: Record<string, number> = {}): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(root, rel)
    mkdirSync(dirname(abs), { recursive: true })
    writeFileSync(abs, content)
  }
  for (const [rel, t] of Object.entries(mtimes)) utimesSync(join(root, rel), t, t)
}

export function toolContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return { signal: new AbortController().signal, agentId: 'agent-test', toolUseId: 'toolu_test', ...overrides }
}

/**
 * Waits until `cond` holds, polling every 10 ms, for up to `limitMs` (by the clock: on a loaded two-core CI
 * machine a poll count is no measure of time). Returns as soon as it holds; a test that can fail says what it waited for.
 */
export async function waitUntil(cond: () => boolean, what: string, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`still waiting after ${limitMs / 1000} s for: ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}
