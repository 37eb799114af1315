// Agents given on the command line: `--agents '{"reviewer": {"description": "...", "prompt": "..."}}'`,
// Claude Code's format. Fields read exactly like frontmatter fields (fields.ts); `prompt` is the body.
import type { AgentDefinition, Diagnostic } from '../../../shared/agent-definition'
import type { Position } from './diagnostics'
import { diagnostic, positionAt, preview } from './diagnostics'
import { readAgentFields } from './fields'
import { errorMessage } from '../../../shared/error-message'

/** The pseudo file name diagnostics for `--agents` JSON carry. */
export const CLI_AGENTS_FILE = '--agents'

function jsonErrorOffset(message: string): number {
  const m = /position (\d+)/.exec(message)
  return m ? Number(m[1]) : 0
}

export interface CliAgents {
  definitions: AgentDefinition[]
  /** Every diagnostic, including those in `perAgent`. */
  diagnostics: Diagnostic[]
  /** Diagnostics of each loaded agent, by name, so they travel with it. */
  perAgent: Record<string, Diagnostic[]>
}

export function parseCliAgentsJson(json: string, file: string = CLI_AGENTS_FILE): CliAgents {
  const diagnostics: Diagnostic[] = []
  const definitions: AgentDefinition[] = []
  const perAgent: Record<string, Diagnostic[]> = Object.create(null)
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch (err) {
    const message = errorMessage(err)
    diagnostics.push(
      diagnostic(file, positionAt(json, jsonErrorOffset(message)), 'error', 'invalid-json', `not valid JSON (${message}); no agents were read from it`)
    )
    return { definitions, diagnostics, perAgent }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    diagnostics.push(
      diagnostic(file, { line: 1, column: 1 }, 'error', 'invalid-agents-json', 'expected an object mapping agent names to { "description", "prompt", ... }')
    )
    return { definitions, diagnostics, perAgent }
  }
  for (const [name, spec] of Object.entries(parsed as Record<string, unknown>)) {
    // JSON has no positions after parsing: point at the first place the agent's name is written.
    const nameOffset = json.indexOf(JSON.stringify(name))
    const at: Position = positionAt(json, nameOffset === -1 ? 0 : nameOffset)
    const fail = (code: string, message: string): void => {
      diagnostics.push(diagnostic(file, at, 'error', code, `agent "${name}": ${message}; it is not loaded`))
    }
    if (!name || name.includes(':')) {
      fail('invalid-name', 'a name must be non-empty and may not contain ":" (reserved for plugin agents)')
      continue
    }
    if (!spec || typeof spec !== 'object' || Array.isArray(spec)) {
      fail('invalid-agent', `expected an object with "description" and "prompt", but got ${preview(spec)}`)
      continue
    }
    const raw = spec as Record<string, unknown>
    if (typeof raw.description !== 'string' || !raw.description.trim()) {
      fail('missing-description', '"description" must be a non-empty text')
      continue
    }
    if (typeof raw.prompt !== 'string' || !raw.prompt.trim()) {
      fail('missing-prompt', '"prompt" (the system prompt) must be a non-empty text')
      continue
    }
    const { fields, diagnostics: fieldDiagnostics } = readAgentFields(raw, {
      file,
      source: 'cli',
      keyAt: () => at,
      valueAt: () => at,
      handled: new Set(['description', 'prompt'])
    })
    perAgent[name] = fieldDiagnostics.map((d) => ({ ...d, message: `agent "${name}": ${d.message}` }))
    diagnostics.push(...perAgent[name])
    definitions.push({
      ...fields,
      agentType: name,
      whenToUse: raw.description,
      systemPrompt: raw.prompt.trim(),
      source: 'cli',
      frontmatter: raw
    })
  }
  return { definitions, diagnostics, perAgent }
}
