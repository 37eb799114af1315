// Claude Code's own credential files in the home folder: the sandbox never lets a command read them
// (sandbox-policy.ts CREDENTIAL_STORES), and what they hold is registered for redaction, so a copy that
// reaches a tool result by another road (a file an agent made, a command outside the sandbox) is hidden too.
import { join } from 'node:path'
import { registerSecret } from '../../../shared/redact'
import { readConfigJson } from '../store/read-config'

/** Relative to the home folder. `~/.claude.json` holds `primaryApiKey` and the OAuth account; `.credentials.json` the OAuth tokens. */
export const CLAUDE_CODE_CREDENTIAL_FILES = [
  '.claude.json',
  '.claude.json.backup',
  '.claude/.credentials.json',
  '.config/claude/.credentials.json',
  '.config/claude/.claude.json'
]

/** Keys whose string values are credentials. */
const CREDENTIAL_KEY = /(?:api_?key|token|secret|password)$/i
/** ~/.claude.json keeps every project's history too: it may be large. */
const MAX_BYTES = 32 * 1024 * 1024

function registerValues(value: unknown, key: string, depth: number): void {
  if (depth > 8) return
  if (typeof value === 'string') {
    if (CREDENTIAL_KEY.test(key)) registerSecret(value)
  } else if (Array.isArray(value)) for (const v of value) registerValues(v, key, depth + 1)
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) registerValues(v, k, depth + 1)
}

/** Registers the credentials Claude Code stored under `home` (a file that is missing or unreadable is skipped). */
export function registerCredentialFileSecrets(home: string): void {
  for (const rel of CLAUDE_CODE_CREDENTIAL_FILES) {
    const read = readConfigJson(join(home, rel), MAX_BYTES)
    if ('json' in read) registerValues(read.json, '', 0)
  }
}
