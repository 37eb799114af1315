// Whether a new agent's name can be one, and if not, why, in a sentence (with a name that would do). The
// name is also the file name and what the main agent asks for, so it stays to letters, digits, - _ and .
export const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/

/** The name made valid: spaces and other characters become `-`, e.g. "Changelog Writer" → "changelog-writer". */
export function agentNameSuggestion(name: string): string | null {
  const slug = name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[-_.]+|[-_.]+$/g, '')
    .slice(0, 100)
  return slug && AGENT_NAME.test(slug) ? slug : null
}

/** null when `name` is a valid agent name (or still empty); else why not. */
export function agentNameProblem(raw: string): string | null {
  const name = raw.trim()
  if (!name || AGENT_NAME.test(name)) return null
  const instead = agentNameSuggestion(name)
  const tail = instead ? ` For example: ${instead}` : ''
  if (name.length > 100) return `A name is at most 100 characters; this one has ${name.length}.`
  if (/\s/.test(name)) return `A name has no spaces (it is also the file name); use - or _ instead.${tail}`
  if (name.includes(':')) return `“:” is kept for plugin agents (plugin:agent); use - instead.${tail}`
  if (!/^[A-Za-z0-9]/.test(name)) return `A name starts with a letter or a digit.${tail}`
  const bad = [...new Set(name.match(/[^A-Za-z0-9_.-]/g) ?? [])].map((c) => `“${c}”`).join(' ')
  return `${bad} cannot be in a name: only letters, digits, - _ and . can.${tail}`
}
