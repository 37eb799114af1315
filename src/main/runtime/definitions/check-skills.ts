// `agents check`: a `skills:` entry that names no installed skill (project, user or plugin) is a warning at
// the line of `skills:`: the agent still loads and runs, without that skill, as Claude Code runs it.
import type { Diagnostic } from '../../../shared/agent-definition'
import { discoverSkills, unknownSkills } from '../context/skill-index'
import { skillNotFound } from '../context/skills'
import { readConfigFile } from '../store/read-config'
import { diagnostic } from './diagnostics'
import { MAX_AGENT_FILE_CHARS } from './parse'
import type { SourceEntry } from './sources'

export interface SkillCheckOptions {
  cwd: string
  home: string
  pluginDirs?: ReadonlyArray<{ name: string; dir: string }>
}

async function skillsLine(file: string): Promise<number> {
  try {
    const read = readConfigFile(file, MAX_AGENT_FILE_CHARS * 4) // never blocks on a pipe (store/read-config.ts)
    const lines = ('text' in read ? read.text : '').split('\n')
    const at = lines.findIndex((l) => /^skills\s*:/.test(l))
    return at >= 0 ? at + 1 : 1
  } catch {
    return 1
  }
}

export async function skillDiagnostics(entries: readonly SourceEntry[], opts: SkillCheckOptions): Promise<Diagnostic[]> {
  const wanting = entries.filter((e) => e.definition?.skills?.length)
  if (!wanting.length) return []
  const index = await discoverSkills({ cwd: opts.cwd, home: opts.home, ...(opts.pluginDirs ? { pluginDirs: opts.pluginDirs } : {}) })
  const out: Diagnostic[] = []
  for (const e of wanting) {
    const missing = unknownSkills(e.definition!.skills!, index)
    if (!missing.length) continue
    const line = await skillsLine(e.file)
    for (const m of missing) out.push(diagnostic(e.file, { line, column: 1 }, 'warning', 'skill-not-found', await skillNotFound(m.name, index, opts)))
  }
  return out
}
