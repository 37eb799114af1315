// `fanout agents check`: reads agent files and reports every diagnostic, without running anything.
import { realpath, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { resolve } from 'node:path'
import type { Diagnostic } from '../../../shared/agent-definition'
import { skillDiagnostics } from './check-skills'
import { diagnostic, hasErrors } from './diagnostics'
import { readAgentDir, readAgentFile, readAllSources, resolvePriority, type LoadAgentsOptions, type SourceEntry } from './sources'

export interface CheckResult {
  /** Agent files (and `--agents` entries) read. */
  checked: number
  loaded: number
  /** Files that did not load: each has at least one error diagnostic. */
  failed: string[]
  diagnostics: Diagnostic[]
}

function summarize(entries: SourceEntry[], extra: Diagnostic[]): CheckResult {
  const failed = entries.filter((e) => !e.definition).map((e) => e.file)
  return {
    checked: entries.length,
    loaded: entries.length - failed.length,
    failed: [...failed, ...extra.filter((d) => d.severity === 'error' && !failed.includes(d.file)).map((d) => d.file)],
    diagnostics: [...extra, ...entries.flatMap((e) => e.diagnostics)]
  }
}

/** Checks the given files and folders (folders recursively), as project agents. */
export async function checkAgentPaths(paths: string[], cwd: string, home = homedir()): Promise<CheckResult> {
  const seen = new Set<string>()
  const entries: SourceEntry[] = []
  const extra: Diagnostic[] = []
  for (const p of paths) {
    const path = resolve(cwd, p)
    const at = { line: 1, column: 1 }
    try {
      const s = await stat(path)
      if (s.isDirectory()) {
        const r = await readAgentDir(path, 'project', seen)
        entries.push(...r.entries)
        extra.push(...r.diagnostics)
        continue
      }
      if (!/\.md$/i.test(path)) {
        extra.push(
          diagnostic(path, at, 'error', 'not-markdown', 'not an agent file: agent definitions are `.md` files, so Fanout and Claude Code never read this one')
        )
        continue
      }
      const real = await realpath(path)
      if (seen.has(real)) continue
      seen.add(real)
      entries.push(await readAgentFile(path, 'project', {}))
    } catch {
      extra.push(diagnostic(path, at, 'error', 'not-found', 'no such file or folder'))
    }
  }
  const folded = resolvePriority(entries)
  return summarize(entries, [...extra, ...folded.diagnostics, ...(await skillDiagnostics(entries, { cwd, home }))])
}

/** Checks every source that applies to a working directory (built-in, plugins, user, project, CLI, managed). */
export async function checkEffectiveSources(options: LoadAgentsOptions): Promise<CheckResult> {
  const { entries, diagnostics } = await readAllSources(options)
  const folded = resolvePriority(entries)
  const skills = await skillDiagnostics(entries, { cwd: options.cwd, home: options.home, ...(options.pluginDirs ? { pluginDirs: options.pluginDirs } : {}) })
  return summarize(entries, [...diagnostics, ...folded.diagnostics, ...skills])
}

export const checkFailed = (r: CheckResult): boolean => r.failed.length > 0 || hasErrors(r.diagnostics)
