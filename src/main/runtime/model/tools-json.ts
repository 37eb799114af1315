// JSON.stringify of a request's tool list, each tool's text kept for the next agent: every agent of a fan-out
// carries the same tool definitions (their schemas are module constants, see define-tool.ts), and the
// cache-sharing key and the context estimate each serialized the whole list again for every agent start.
import type { ApiToolSpec } from './types'

/** Per schema object and description, the tool's name and text. */
const texts = new WeakMap<object, Map<string, { name: string; text: string }>>()
/** Descriptions kept per schema: a description that changes (the Agent tool lists the agents) must not pile up. */
const MAX_PER_SCHEMA = 32

/** Exactly `JSON.stringify(tools)`. */
export function toolsJson(tools: readonly unknown[]): string {
  let out = '['
  for (let i = 0; i < tools.length; i++) out += (i ? ',' : '') + toolJson(tools[i])
  return `${out}]`
}

function toolJson(tool: unknown): string {
  // Only the shape the agent loop sends (these three keys, in this order) is kept; anything else is serialized as is.
  if (!isPlainSpec(tool)) return JSON.stringify(tool) ?? 'null'
  let byText = texts.get(tool.input_schema)
  if (!byText) texts.set(tool.input_schema, (byText = new Map()))
  // Keyed by the description itself (one string every agent's spec shares, its hash computed once).
  const kept = byText.get(tool.description)
  if (kept?.name === tool.name) return kept.text
  const text = JSON.stringify(tool)
  if (byText.size >= MAX_PER_SCHEMA) byText.clear()
  byText.set(tool.description, { name: tool.name, text })
  return text
}

function isPlainSpec(tool: unknown): tool is ApiToolSpec {
  if (!tool || typeof tool !== 'object' || Object.getPrototypeOf(tool) !== Object.prototype) return false
  const t = tool as Partial<ApiToolSpec>
  if (typeof t.name !== 'string' || typeof t.description !== 'string' || !t.input_schema || typeof t.input_schema !== 'object') return false
  const keys = Object.keys(t)
  return keys.length === 3 && keys[0] === 'name' && keys[1] === 'description' && keys[2] === 'input_schema'
}
