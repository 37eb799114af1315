// What `fanout run` says on stderr about the folder's own commands it did not use: each one, and how to allow it.
import type { FolderTrust } from '../../shared/trust'
import { howToApprove } from '../runtime/trust'
import { itemLine } from '../runtime/trust/wording'

export function skippedText(trust: FolderTrust, cwd: string): string {
  const waiting = trust.items.filter((i) => i.state === 'waiting')
  const declined = trust.items.filter((i) => i.state === 'declined')
  const out: string[] = []
  if (waiting.length) {
    out.push(`fanout: skipped what this folder brings that runs by itself, because you have not approved it for ${cwd}:`)
    for (const i of waiting) out.push(`  ${itemLine(i, 300)}${i.changed ? ' (changed since you last answered)' : ''}`)
  }
  if (declined.length) {
    out.push(`fanout: skipped what you declined for this folder:`)
    for (const i of declined) out.push(`  ${itemLine(i, 300)}`)
  }
  if (!out.length) return ''
  const servers = [...waiting, ...declined].filter((i) => i.kind === 'mcp-server').map((i) => i.name)
  out.push(howToApprove('cli', cwd, servers).replace(/^/gm, 'fanout: '))
  return `${out.join('\n')}\n`
}
