// How waiting items are said: one line each for the command line, a sentence for an agent's error event,
// and how to approve them, where the person is.
import { KIND_TEXT, type ProjectCommand } from '../../../shared/trust'

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** `MCP server "notes" (.mcp.json): node server.js` */
export function itemLine(item: ProjectCommand, max = Infinity): string {
  return `${KIND_TEXT[item.kind]} "${item.name}" (${item.file}): ${clip(item.command, max)}`
}

/** "the MCP server "notes" and 2 hooks" */
export function describeWaiting(items: readonly ProjectCommand[]): string {
  const servers = items.filter((i) => i.kind === 'mcp-server' || i.kind === 'agent-mcp-server')
  const hooks = items.filter((i) => i.kind === 'hook' || i.kind === 'agent-hook')
  const files = items.filter((i) => i.kind === 'outside-file')
  const grants = items.length - servers.length - hooks.length - files.length
  const parts = [
    files.length === 1 ? `a file from outside it (${files[0].name})` : files.length ? `${files.length} files from outside it` : '',
    servers.length === 1
      ? `the MCP server "${servers[0].name}"`
      : servers.length
        ? `${servers.length} MCP servers (${servers.map((s) => `"${s.name}"`).join(', ')})`
        : '',
    hooks.length === 1 ? `a hook (${hooks[0].name})` : hooks.length ? `${hooks.length} hooks` : '',
    grants === 1 ? 'a permission its settings grant' : grants ? `${grants} permissions its settings grant` : ''
  ].filter(Boolean)
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : (parts[0] ?? 'nothing')
}

/** What to do, for the command line (`fanout run`) or the app. */
export function howToApprove(where: 'cli' | 'app', cwd: string, servers: readonly string[] = []): string {
  if (where === 'app')
    return 'Review them in the approval prompt for this folder (Settings › MCP servers › Review, or start a new session); until then the session runs without them.'
  const lines = [
    'To allow them, do one of:',
    `  - approve the folder once: fanout trust allow --cwd ${JSON.stringify(cwd)}  (or in the Fanout app, which asks when it opens the folder)`,
    '  - trust it for this run only: add --trust-project'
  ]
  if (servers.length)
    lines.push(
      `  - for MCP servers, as in Claude Code: add "enabledMcpjsonServers": ${JSON.stringify([...new Set(servers)])} (or "enableAllProjectMcpServers": true) to ~/.claude/settings.json or to this folder's .claude/settings.local.json (when git does not track it)`
    )
  return lines.join('\n')
}
