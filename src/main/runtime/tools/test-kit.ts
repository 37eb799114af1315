// Shared by the tool and permission tests: real temp directories and a ToolContext.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { ToolContext } from './define-tool'

export function makeTempDir(prefix = 'fanout-tools-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
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
