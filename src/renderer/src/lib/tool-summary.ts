// One line that says what a tool call is about (the file, the command, the pattern), for rows and panels.
import { truncate } from './format'

const KEYS_BY_TOOL: Record<string, string[]> = {
  Read: ['file_path', 'path'],
  Write: ['file_path', 'path'],
  Edit: ['file_path', 'path'],
  MultiEdit: ['file_path'],
  NotebookEdit: ['notebook_path'],
  Bash: ['command'],
  Grep: ['pattern'],
  Glob: ['pattern'],
  WebFetch: ['url'],
  WebSearch: ['query'],
  Agent: ['description', 'subagent_type'],
  Task: ['description', 'subagent_type'],
  SendMessage: ['to', 'message'],
  TodoWrite: []
}

/** Best-effort parse of streamed (possibly incomplete) input JSON. */
export function parsePartialInput(inputJson: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(inputJson)
    return v && typeof v === 'object' ? v : null
  } catch {
    // Pull complete "key": "value" pairs out of an unfinished object.
    const out: Record<string, unknown> = {}
    for (const m of inputJson.matchAll(/"([A-Za-z_]+)"\s*:\s*"((?:[^"\\]|\\.)*)"/g)) {
      try {
        out[m[1]] = JSON.parse(`"${m[2]}"`)
      } catch {}
    }
    return Object.keys(out).length ? out : null
  }
}

export function toolSummary(name: string, input: unknown, inputJson = ''): string {
  const obj = (input && typeof input === 'object' ? input : parsePartialInput(inputJson)) as Record<string, unknown> | null
  if (!obj) return ''
  const keys = KEYS_BY_TOOL[name] ?? Object.keys(obj)
  for (const k of keys) {
    const v = obj[k]
    if (typeof v === 'string' && v.trim()) return truncate(v.replace(/\s+/g, ' ').trim(), 200)
  }
  if (name === 'TodoWrite' && Array.isArray(obj.todos)) return `${obj.todos.length} items`
  return ''
}

export function prettyJson(value: unknown, fallback = ''): string {
  if (value === undefined) return fallback
  try {
    return JSON.stringify(value, null, 2)
  } catch {
    return String(value)
  }
}
