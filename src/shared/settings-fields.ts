// The rules of each Settings field and the sentence a person reads when a value breaks one. Shared by the
// contract (which enforces them on every call) and the Settings dialog (which checks as you type), so the
// two never disagree and a failure from the host can be put next to the field it is about.

export const MODEL_ALIAS_NAMES = ['haiku', 'sonnet', 'opus'] as const
export type ModelAliasName = (typeof MODEL_ALIAS_NAMES)[number]

export const THEME_CHOICES = ['system', 'light', 'dark'] as const

/** How hard a session's agents think (the API's effort levels); unset: each model's own default. */
export const EFFORT_CHOICES = ['low', 'medium', 'high', 'xhigh', 'max'] as const
export type EffortChoice = (typeof EFFORT_CHOICES)[number]
export const EFFORT_LABEL: Record<EffortChoice, string> = {
  low: 'Low effort',
  medium: 'Medium effort',
  high: 'High effort',
  xhigh: 'Extra high effort',
  max: 'Max effort'
}
export type ThemeChoice = (typeof THEME_CHOICES)[number]

/**
 * How agents that start together share the prompt cache (runtime/model/cache-sharing.ts): `first` starts one
 * and the rest once its response begins, `prewarm` sends their shared prefix first, `off` starts all at once.
 */
export const CACHE_SHARING_MODES = ['first', 'prewarm', 'off'] as const
export type CacheSharingMode = (typeof CACHE_SHARING_MODES)[number]

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string }

export type NumberSetting =
  | 'maxConcurrentAgents'
  | 'maxDepth'
  | 'maxTurns'
  | 'maxBudgetUsd'
  | 'maxBudgetTokens'
  | 'subagentBudgetUsd'
  | 'approveFanoutAboveUsd'
  | 'autoCompactPercent'

interface NumberRule {
  min: number
  max: number
  whole: boolean
  example: string
  /** Empty is allowed: no limit for a limit, the default (null) for autoCompactPercent. */
  optional?: boolean
}

export const NUMBER_RULES: Readonly<Record<NumberSetting, NumberRule>> = {
  maxConcurrentAgents: { min: 1, max: 256, whole: true, example: '4' },
  maxDepth: { min: 1, max: 32, whole: true, example: '3' },
  maxTurns: { min: 1, max: 10_000, whole: true, example: '200' },
  /** Dollars; empty means no limit. */
  maxBudgetUsd: { min: 0.01, max: 100_000, whole: false, example: '5 or 2.50', optional: true },
  /** Tokens of every agent together; empty means no limit. */
  maxBudgetTokens: { min: 1000, max: 1_000_000_000_000, whole: true, example: '2000000', optional: true },
  /** Dollars each subagent and its own subagents may spend unless its call or file says; empty means no limit. */
  subagentBudgetUsd: { min: 0.01, max: 100_000, whole: false, example: '0.50', optional: true },
  /** Dollars above which a fan-out's estimate is asked about first; empty means never ask. */
  approveFanoutAboveUsd: { min: 0.01, max: 100_000, whole: false, example: '1', optional: true },
  /** Percent of the model's context window; empty means Claude Code's default threshold. */
  autoCompactPercent: { min: 10, max: 100, whole: true, example: '80', optional: true }
}

const WHOLE = /^\d+$/
const DOLLARS = /^(\d+(\.\d*)?|\.\d+)$/

export const wholeNumberText = (name: NumberSetting) => `Enter a whole number, like ${NUMBER_RULES[name].example}.`
export const rangeText = (name: NumberSetting) => {
  const r = NUMBER_RULES[name]
  if (!r.whole) return `Enter an amount from $${r.min} to $${r.max.toLocaleString('en-US')}, or leave it empty for no limit.`
  const empty = !r.optional ? '' : name === 'autoCompactPercent' ? ', or leave it empty for the default' : ', or leave it empty for no limit'
  return `Enter a number from ${r.min.toLocaleString('en-US')} to ${r.max.toLocaleString('en-US')}${empty}.`
}
export const DOLLARS_TEXT = 'Enter an amount in dollars, like 5 or 2.50.'

/** A numeric field as typed: its number (null: the budget left empty, no limit) or why it is not one. */
export function checkNumberSetting(name: NumberSetting, text: string): Checked<number | null> {
  const t = text.trim()
  const rule = NUMBER_RULES[name]
  if (!t && rule.optional) return { ok: true, value: null }
  if (!rule.whole) {
    if (!DOLLARS.test(t)) return { ok: false, error: DOLLARS_TEXT }
  } else if (!WHOLE.test(t)) return { ok: false, error: /^-\d+$/.test(t) ? rangeText(name) : wholeNumberText(name) } // -3 is whole, but out of range
  const n = Number(t)
  if (!Number.isFinite(n) || n < rule.min || n > rule.max) return { ok: false, error: rangeText(name) }
  return { ok: true, value: n }
}

// A bare word (letters only) cannot be a model id, so the runtime reads it as an alias; anything with a
// digit, dash, dot, slash, colon or bracket is an id and passed through (gateways name models freely).
const BARE_WORD = /^[a-z]+$/i
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:/@[\]-]*$/
const MODEL_EXAMPLE = 'claude-sonnet-4-5'

export const isBareWord = (value: string) => BARE_WORD.test(value)
export const isModelAlias = (value: string): value is ModelAliasName => (MODEL_ALIAS_NAMES as readonly string[]).includes(value.toLowerCase())

/**
 * A model as typed. `alias: true` (the default model) also takes haiku, sonnet or opus; an alias's own
 * model id must be a full id, since aliases are not resolved twice.
 */
export function checkModelId(text: string, opts: { alias: boolean }): Checked<string> {
  const t = text.trim()
  const what = opts.alias ? 'an alias (haiku, sonnet, opus) or a model id' : `a model id, like ${MODEL_EXAMPLE}`
  if (!t) return { ok: false, error: `Enter ${what}.` }
  if (t.length > 200) return { ok: false, error: 'A model id is at most 200 characters.' }
  if (!MODEL_ID.test(t)) return { ok: false, error: `A model id has no spaces and only letters, digits and - . _ : / @, like ${MODEL_EXAMPLE}.` }
  if (isBareWord(t)) {
    if (opts.alias && isModelAlias(t)) return { ok: true, value: t.toLowerCase() }
    return {
      ok: false,
      error: opts.alias
        ? `“${t}” is not an alias: use haiku, sonnet or opus, or a full model id like ${MODEL_EXAMPLE}.`
        : `Enter a full model id, like ${MODEL_EXAMPLE}; a single word is not one.`
    }
  }
  return { ok: true, value: t }
}

export const BASE_URL_TEXT = 'Enter an address that starts with http:// or https://, like https://gateway.example.com.'

/** The base URL as typed: null when empty (the default endpoint). */
export function checkBaseUrl(text: string): Checked<string | null> {
  const t = text.trim()
  if (!t) return { ok: true, value: null }
  try {
    const url = new URL(t)
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname) return { ok: true, value: t }
  } catch {
    // falls through to the sentence
  }
  return { ok: false, error: BASE_URL_TEXT }
}

/**
 * A key as pasted: `error` when it cannot be a key at all (the contract refuses it too), `warning` when it
 * does not look like an Anthropic key — saved anyway, since a gateway's token can look like anything.
 */
export function checkApiKey(text: string): { error?: string; warning?: string } {
  const t = text.trim()
  if (!t) return {}
  if (/\s/.test(t)) return { error: 'The key has a space or line break inside it; keys have none. Paste it again.' }
  if (!/^[\x21-\x7e]+$/.test(t)) return { error: 'The key has characters a key cannot have (only plain letters, digits and symbols). Paste it again.' }
  if (!t.startsWith('sk-ant-'))
    return { warning: 'This does not look like an Anthropic API key (those start with sk-ant-). Save it anyway if it is a token for your gateway.' }
  if (t.length < 40) return { warning: 'This key looks too short; check that all of it was copied.' }
  return {}
}

/** The dialog's name for each field a contract path can point at. */
export type SettingsFieldKey = NumberSetting | 'baseUrl' | 'defaultModel' | 'defaultPermissionMode' | 'theme' | 'toolResultClearing' | `alias.${ModelAliasName}`

/**
 * A refusal from the host, put to the dialog's fields: each field error the host sent (by its path in the
 * request, see IpcError) goes next to its field; one no field shows, or an error that names no field at
 * all, stays in `rest`, as a sentence for the whole form.
 */
export function settingsFieldErrors(error: { message: string; fields?: Readonly<Record<string, string>> }): {
  fields: Partial<Record<SettingsFieldKey, string>>
  rest: string[]
} {
  const fields: Partial<Record<SettingsFieldKey, string>> = {}
  const rest: string[] = []
  const sent = Object.entries(error.fields ?? {})
  for (const [path, sentence] of sent) {
    const key = fieldOfPath(path)
    if (key) fields[key] ??= sentence
    else rest.push(`${path}: ${sentence}`)
  }
  if (!sent.length) rest.push(error.message)
  return { fields, rest }
}

function fieldOfPath(path: string): SettingsFieldKey | null {
  const [head, tail] = path.split('.')
  if ((head === 'limits' || head === 'context') && tail && Object.hasOwn(NUMBER_RULES, tail)) return tail as NumberSetting
  if (head === 'context' && tail === 'toolResultClearing') return 'toolResultClearing'
  if (head === 'modelAliases' && tail && isModelAlias(tail)) return `alias.${tail.toLowerCase() as ModelAliasName}`
  if (['baseUrl', 'defaultModel', 'defaultPermissionMode', 'theme'].includes(head) && !tail) return head as SettingsFieldKey
  return null
}

/** How old tool results are cleared (settings.json `context.toolResultClearing`), with what each choice says. */
export const CLEARING_CHOICES = ['auto', 'api', 'local', 'off'] as const
export type ClearingChoice = (typeof CLEARING_CHOICES)[number]
export const CLEARING_LABEL: Record<ClearingChoice, string> = {
  auto: 'Cleared (by the API where it can)',
  api: 'Cleared by the API',
  local: 'Cleared by Fanout',
  off: 'Kept whole'
}
