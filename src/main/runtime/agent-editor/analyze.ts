// Reads an agent file (or an unsaved draft) through the runtime's own loader and says everything the
// editor shows: the loader's diagnostics at file:line:col, the form's values, where each key is, whether
// the form may edit it, the one-click repair when there is one, and the effective result — the tools a
// subagent of this definition really gets (with the reason each other tool is removed) and the exact line
// it adds to the Agent tool's listing.
import type { AgentSource } from '../../../shared/agent-definition'
import type { AgentAnalysis, KeySpan } from '../../../shared/agent-editor'
import { formatAgentLine } from '../definitions/listing'
import { parseAgentMarkdown, type ParseAgentOptions } from '../definitions/parse'
import { resolveAgentTools } from '../definitions/resolve-tools'
import { FRONTMATTER_KEYS } from '../definitions/schema'
import { fieldsOf, fieldsOfData, isEditorField } from './field-view'
import { lineOf, readFrontmatterDoc } from './frontmatter-doc'
import { repairAgentText } from './repair'

export interface AnalyzeOptions extends ParseAgentOptions {
  /** Tools the runtime offers a session (built-in, Agent, SendMessage, ...). */
  availableTools: readonly string[]
  /** Tools of connected MCP servers (`mcp__server__tool`). */
  mcpTools?: readonly string[]
}

export function analyzeAgentText(text: string, file: string, source: AgentSource, opts: AnalyzeOptions): AgentAnalysis {
  const parsed = parseAgentMarkdown(text, file, source, opts)
  const doc = readFrontmatterDoc(text)
  const def = parsed.definition
  const keySpans: Record<string, KeySpan> = {}
  let fields = {}
  let keys: string[] = []
  if (doc.ok) {
    for (const span of doc.pairs) keySpans[span.key] = { line: lineOf(text, span.keyStart), endLine: lineOf(text, span.lineEnd) }
    fields = fieldsOf(doc)
    keys = doc.pairs.map((p) => p.key)
  } else if (def?.frontmatter) {
    // Loaded only after Claude Code's repair: show the values it read, read-only until the file is fixed.
    fields = fieldsOfData(def.frontmatter)
    keys = Object.keys(def.frontmatter)
  }
  const known = new Set<string>(FRONTMATTER_KEYS)
  const unknownKeys = keys.filter((k) => !known.has(k))
  const rawOnlyKeys = keys.filter((k) => known.has(k) && !isEditorField(k))
  const repair = repairAgentText(text, file)
  // Not valid YAML as written but loaded (Claude Code quotes values while reading): the form stays open, and
  // the first edit makes the same repair (edit-fields.ts), so no field waits on fixing another.
  const repairable = !doc.ok && doc.reason === 'invalid-yaml' && Boolean(def) && repair !== null && readFrontmatterDoc(repair.text).ok
  const formBlocked = doc.ok
    ? doc.block
      ? undefined
      : 'The frontmatter is one `{ ... }` mapping; edit it in the raw file.'
    : repairable
      ? undefined
      : doc.reason === 'invalid-yaml' && def
        ? 'The frontmatter is not valid YAML as written (it loads only because the values are quoted while reading), and the quotes cannot be added safely. Edit it in the raw file.'
        : `The form cannot edit this file: ${doc.message}.`
  const analysis: AgentAnalysis = {
    file,
    source,
    loaded: Boolean(def),
    ...(def ? { agentType: def.agentType } : {}),
    diagnostics: parsed.diagnostics,
    fields,
    keySpans,
    unknownKeys,
    rawOnlyKeys,
    formEditable: !formBlocked,
    ...(formBlocked ? { formBlocked } : {}),
    body: text.slice(doc.bodyStart),
    bodyLine: lineOf(text, doc.bodyStart),
    ...(repair ? { repair: { changes: repair.changes } } : {})
  }
  if (def) {
    const tools = resolveAgentTools(def, opts.availableTools, {
      isBuiltIn: source === 'built-in',
      isBackground: def.background === true,
      isSubagent: true,
      ...(opts.mcpTools ? { mcpTools: [...opts.mcpTools] } : {})
    })
    analysis.effective = { tools, listingLine: formatAgentLine(def), available: [...new Set([...opts.availableTools, ...(opts.mcpTools ?? [])])] }
  }
  return analysis
}
