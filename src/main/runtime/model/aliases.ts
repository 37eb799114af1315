// Model aliases and the resolution order agents use: per-call override > definition > parent, where
// `inherit` (and `default`) mean the parent's model. The aliases are Claude Code 2.1.328's: haiku, sonnet,
// opus and fable (each configurable), `best` (opus), `opusplan` (sonnet: opus only plans, and Fanout has no
// plan-then-execute switch), and any of them with Claude Code's `[1m]` context suffix, which Fanout drops
// (it sends the same model id; the 1M window needs no flag on the 5.x models).
import { isBareWord } from '../../../shared/settings-fields'
import { UnknownModelError } from './errors'
import type { ModelClient, ModelListing } from './types'
import { errorMessage } from '../../../shared/error-message'

export const MODEL_FAMILIES = ['haiku', 'sonnet', 'opus'] as const
export type ModelFamily = (typeof MODEL_FAMILIES)[number]

/** The three configurable families, and `fable` when a listing or the person set it (else DEFAULT_FABLE_MODEL). */
export type ModelAliases = Record<ModelFamily, string> & { fable?: string }

export const DEFAULT_MODEL_ALIASES: Readonly<ModelAliases> = Object.freeze({
  haiku: 'claude-haiku-5-5',
  sonnet: 'claude-sonnet-5-5',
  opus: 'claude-opus-5-5'
})

/** What Claude Code 2.1.328 sends for `fable`. */
export const DEFAULT_FABLE_MODEL = 'claude-fable-5-2'

/** Aliases beyond the three families, as Claude Code reads them. */
const OTHER_ALIASES: Readonly<Record<string, (a: ModelAliases) => string>> = {
  fable: (a) => a.fable ?? DEFAULT_FABLE_MODEL,
  best: (a) => a.opus,
  opusplan: (a) => a.sonnet
}

/** Every alias a model field may use, for messages. */
export const ALIAS_NAMES: readonly string[] = [...MODEL_FAMILIES, ...Object.keys(OTHER_ALIASES)]

/** Claude Code's `[1m]` suffix (the 1M-token context window) off, e.g. `sonnet[1m]` is `sonnet`. */
export const withoutContextSuffix = (value: string): string => value.replace(/\[1m\]$/i, '')

export function isAlias(value: string): value is ModelFamily {
  return (MODEL_FAMILIES as readonly string[]).includes(value.toLowerCase())
}

/** The family a model id belongs to, from its name; undefined for ids outside the three families. */
export function familyOf(modelId: string): ModelFamily | undefined {
  const id = modelId.toLowerCase()
  return MODEL_FAMILIES.find((family) => id.includes(family))
}

export interface ResolveModelInput {
  /** Per-call choice, e.g. the Agent tool's `model` input. */
  override?: string | null
  /** The agent definition's `model` field. */
  definition?: string | null
  /** The parent agent's resolved model id (or an alias, resolved the same way). */
  parent: string
  aliases?: ModelAliases
}

function resolveOne(value: string, from: string, aliases: ModelAliases): string {
  const v = withoutContextSuffix(value.trim())
  if (isAlias(v)) return aliases[v.toLowerCase() as ModelFamily]
  const other = OTHER_ALIASES[v.toLowerCase()]
  if (other) return other(aliases)
  // A bare word cannot be a model id, so it must be an alias (see settings-fields.ts).
  if (isBareWord(v)) throw new UnknownModelError(v, from, [...ALIAS_NAMES])
  return v
}

/** Resolves the model an agent runs on. Throws UnknownModelError for a bare word that is not an alias. */
export function resolveModel(input: ResolveModelInput): string {
  const aliases = input.aliases ?? DEFAULT_MODEL_ALIASES
  const parent = resolveOne(input.parent, "the parent agent's model", aliases)
  const candidates: Array<[string | null | undefined, string]> = [
    [input.override, 'the model requested for this call'],
    [input.definition, "the agent definition's model field"]
  ]
  for (const [value, from] of candidates) {
    if (value == null || value.trim() === '') continue
    const word = value.trim().toLowerCase()
    if (word === 'inherit' || word === 'default') return parent
    return resolveOne(value, from, aliases)
  }
  return parent
}

/**
 * A model id for a request: an alias ("sonnet", "opus[1m]", "best") resolved, a full id as it is. State
 * restored from disk (a reopened session's main agent, a resumed agent's state.json) may hold the alias it
 * was configured with, and the API refuses a bare alias; a word that is no alias is left for the API to refuse.
 */
export function fullModelId(model: string, aliases: ModelAliases = DEFAULT_MODEL_ALIASES): string {
  try {
    return resolveModel({ parent: model, aliases })
  } catch {
    return model
  }
}

/**
 * Picks the newest active model of each family from a /v1/models listing; families the listing
 * does not offer keep their current id. Uses the listing's `line` when it has one, else the id.
 */
export function aliasesFromListing(models: ModelListing[], current: ModelAliases = DEFAULT_MODEL_ALIASES): ModelAliases {
  const next: ModelAliases = { ...current }
  for (const family of [...MODEL_FAMILIES, 'fable' as const]) {
    const members = models.filter((m) => {
      if (m.lifecycle && m.lifecycle !== 'active') return false
      return m.line ? m.line === family : family === 'fable' ? m.id.toLowerCase().includes('fable') : familyOf(m.id) === family
    })
    if (!members.length) continue
    members.sort((a, b) => newer(b, a))
    next[family] = members[0].id
  }
  return next
}

// Orders by release date when both have one, else by the version numbers in the id
// (claude-sonnet-5-5 > claude-sonnet-4-6), so gateways that omit created_at still pick sensibly.
function newer(a: ModelListing, b: ModelListing): number {
  const ta = a.createdAt ? Date.parse(a.createdAt) : NaN
  const tb = b.createdAt ? Date.parse(b.createdAt) : NaN
  if (!Number.isNaN(ta) && !Number.isNaN(tb) && ta !== tb) return ta - tb
  const na = a.id.match(/\d+/g)?.map(Number) ?? []
  const nb = b.id.match(/\d+/g)?.map(Number) ?? []
  for (let i = 0; i < Math.max(na.length, nb.length); i++) {
    const d = (na[i] ?? -1) - (nb[i] ?? -1)
    if (d) return d
  }
  return 0
}

export interface AliasRefresh {
  aliases: ModelAliases
  /** False when the endpoint does not list models; `aliases` is then `current` unchanged. */
  refreshed: boolean
  error?: string
}

/** Refreshes the alias table from the endpoint's GET /v1/models, keeping `current` when it is unavailable. */
export async function refreshModelAliases(
  client: Pick<ModelClient, 'listModels'>,
  current: ModelAliases = DEFAULT_MODEL_ALIASES,
  signal?: AbortSignal
): Promise<AliasRefresh> {
  try {
    const models = await client.listModels(signal)
    return { aliases: aliasesFromListing(models, current), refreshed: true }
  } catch (err) {
    return { aliases: { ...current }, refreshed: false, error: errorMessage(err) }
  }
}
