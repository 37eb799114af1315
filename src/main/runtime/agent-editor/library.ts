// The library: every agent file the runtime reads for a folder, loaded or not, with what it shadows or is
// shadowed by and its diagnostics — read by the same functions loadAgents uses, so it shows exactly what the
// next spawn will see.
import { basename } from 'node:path'
import type { AgentLibrary, LibraryEntry } from '../../../shared/agent-editor'
import { LIBRARY_SOURCE_ORDER } from '../../../shared/agent-editor'
import { CLI_AGENTS_FILE } from '../definitions/cli-agents'
import { formatAgentListing, formatToolsForListing } from '../definitions/listing'
import { readAllSources, resolvePriority } from '../definitions/sources'
import { editableScope, scopeDirs, type AgentPathContext } from './agent-paths'
import { agentTemplates } from './templates'

const rank = (source: string): number => LIBRARY_SOURCE_ORDER.indexOf(source as never)
const sortName = (e: LibraryEntry): string => e.agentType ?? basename(e.id)

export async function buildLibrary(ctx: AgentPathContext, availableTools: readonly string[] = []): Promise<AgentLibrary> {
  const { entries, diagnostics } = await readAllSources({ cwd: ctx.cwd, home: ctx.home, ...ctx.sources })
  const folded = resolvePriority(entries)
  const lateDiagnostics = new Map<string, typeof folded.diagnostics>()
  for (const d of folded.diagnostics) lateDiagnostics.set(d.file, [...(lateDiagnostics.get(d.file) ?? []), d])

  const out: LibraryEntry[] = entries.map((entry) => {
    const def = entry.definition
    const winner = def ? folded.byType.get(def.agentType) : undefined
    const active = Boolean(def && winner?.definition === def)
    const id = entry.file === CLI_AGENTS_FILE ? `${CLI_AGENTS_FILE}:${def?.agentType ?? ''}` : entry.file
    const scope = entry.file !== CLI_AGENTS_FILE ? editableScope(entry.file, ctx) : undefined
    const own = entry.file !== CLI_AGENTS_FILE ? (lateDiagnostics.get(entry.file) ?? []) : []
    const result: LibraryEntry = {
      id,
      source: entry.source,
      ...(entry.file !== CLI_AGENTS_FILE ? { file: entry.file } : {}),
      loaded: Boolean(def),
      active,
      shadows: active && winner ? winner.shadows : [],
      diagnostics: [...entry.diagnostics, ...own.filter((d) => !entry.diagnostics.includes(d))],
      ...(scope && (entry.source === 'user' || entry.source === 'project') ? { scope } : {})
    }
    if (def) {
      result.agentType = def.agentType
      result.description = def.whenToUse
      if (def.color) result.color = def.color
      else if (typeof def.frontmatter?.color === 'string') result.color = def.frontmatter.color
      if (def.model) result.model = def.model
      result.toolsLabel = formatToolsForListing(def)
      if (!active && winner) result.shadowedBy = { source: winner.definition.source, ...(winner.definition.file ? { file: winner.definition.file } : {}) }
    }
    return result
  })
  out.sort((a, b) => rank(a.source) - rank(b.source) || sortName(a).localeCompare(sortName(b)) || Number(b.active) - Number(a.active))
  const fileDiagnostics = new Set(out.flatMap((e) => e.diagnostics))
  return {
    cwd: ctx.cwd,
    entries: out,
    folderDiagnostics: diagnostics.filter((d) => !fileDiagnostics.has(d)),
    listing: formatAgentListing(folded.agents.map((a) => a.definition)),
    dirs: scopeDirs(ctx),
    templates: agentTemplates(),
    availableTools: [...availableTools]
  }
}
