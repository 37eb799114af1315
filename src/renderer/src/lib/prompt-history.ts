// The prompts a person sent in a project, newest first, kept in localStorage (across reloads and tabs, as a
// shell keeps its history): ↑ in the prompt box recalls them. Entries are never changed by editing a recalled
// one; the same prompt sent twice in a row is kept once.
const PREFIX = 'fanout-history:'
export const HISTORY_MAX = 100

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

export function promptHistory(project: string): string[] {
  try {
    const v = JSON.parse(storage()?.getItem(PREFIX + project) ?? '[]') as unknown
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []
  } catch {
    return []
  }
}

export function rememberPrompt(project: string, text: string): void {
  const s = storage()
  if (!s || !text.trim()) return
  const list = promptHistory(project)
  if (list[0] === text) return
  try {
    s.setItem(PREFIX + project, JSON.stringify([text, ...list].slice(0, HISTORY_MAX)))
  } catch {
    // A full storage keeps the older history rather than failing the send.
  }
}
