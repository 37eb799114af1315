// `/compact [what to keep]`, typed where a prompt goes (the app's prompt box, `fanout run -p`): compacts the
// main agent's conversation instead of being sent to it.
export function parseCompactCommand(text: string): { instructions?: string } | null {
  const m = /^\/compact(?:\s+([\s\S]*))?$/.exec(text.trim())
  if (!m) return null
  return m[1]?.trim() ? { instructions: m[1].trim() } : {}
}
