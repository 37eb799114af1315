// The block a slash command puts before its prompt (Claude Code's `<command-message>…<command-name>/x</command-name>
// <command-args>…</command-args>`): views and labels show it as the person typed it, `/x args`.

const BLOCK = /^<command-message>[^<]*<\/command-message>\n<command-name>(\/[^<]*)<\/command-name>\n(?:<command-args>([\s\S]*)<\/command-args>\n)?$/

/** `/name args` for a command block, else null. */
export function typedCommand(text: string): string | null {
  const m = BLOCK.exec(text)
  if (!m) return null
  return m[2] ? `${m[1]} ${m[2]}` : m[1]
}
