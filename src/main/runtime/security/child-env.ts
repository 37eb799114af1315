// The environment every child process gets: Fanout's own, minus anything that carries a credential, unless a
// setting passes it by name. One helper for Bash, hooks, MCP servers and the rg/git processes tools start,
// so a new place that spawns a program cannot forget it.
//
// What counts as a credential, in order:
// - the variables Fanout itself authenticates with (ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, CLAUDE_CODE_OAUTH_TOKEN);
// - any name with a part that names a secret: KEY, TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE, CREDENTIAL(S),
//   CREDS, AUTH, COOKIE, SESSION_TOKEN, PAT, PRIVATE… split on `_` (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY,
//   NPM_CONFIG__AUTH, DB_PASSWORD, OPENAI_API_KEY), or ending in APIKEY/TOKEN/SECRET written as one word;
// - any value that embeds a password in a URL (`postgres://user:pass@host`);
// - a few well-known names that fit no pattern (AWS_ACCESS_KEY_ID is covered; GOOGLE_APPLICATION_CREDENTIALS too).
// Kept although they match: SSH_AUTH_SOCK (a socket path, how approved git-over-ssh works) and the KEY-named
// settings that hold no secret (GPG_KEY_ID is not one of them: only what is listed below).

const FANOUT_CREDENTIALS = new Set(['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN', 'ANTHROPIC_CUSTOM_HEADERS'])
const SECRET_PARTS = new Set([
  'KEY',
  'KEYS',
  'APIKEY',
  'TOKEN',
  'TOKENS',
  'SECRET',
  'SECRETS',
  'PASSWORD',
  'PASSWORDS',
  'PASSWD',
  'PASS',
  'PASSPHRASE',
  'PWD_HASH',
  'CREDENTIAL',
  'CREDENTIALS',
  'CREDS',
  'AUTH',
  'AUTHTOKEN',
  'COOKIE',
  'COOKIES',
  'PAT',
  'PRIVATE',
  'SIGNATURE',
  'CERT_KEY',
  'OTP'
])
const SECRET_SUFFIX = /(APIKEY|ACCESSKEY|SECRETKEY|AUTHTOKEN|ACCESSTOKEN|TOKEN|SECRET|PASSWORD|PASSWD)$/i
/** Names that look like secrets but are not. */
const NOT_SECRET = new Set(['SSH_AUTH_SOCK', 'GPG_AGENT_INFO', 'KEYTIMEOUT', 'XAUTHORITY', 'PWD', 'OLDPWD'])
const URL_WITH_PASSWORD = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i

/** git's GIT_CONFIG_KEY_<n> holds a config key's name (its value is GIT_CONFIG_VALUE_<n>, judged as any value). */
const GIT_CONFIG_KEY = /^GIT_CONFIG_KEY_\d+$/

export function isSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase()
  if (NOT_SECRET.has(upper) || GIT_CONFIG_KEY.test(upper)) return false
  if (FANOUT_CREDENTIALS.has(upper)) return true
  if (upper.split(/_+/).some((part) => SECRET_PARTS.has(part))) return true
  return SECRET_SUFFIX.test(upper)
}

export function isSecretEnvEntry(name: string, value: string | undefined): boolean {
  return isSecretEnvName(name) || (value !== undefined && URL_WITH_PASSWORD.test(value))
}

/** `NAME` or `PREFIX_*`: which credential-looking variables a setting passes on anyway. */
function passes(pass: readonly string[], name: string): boolean {
  return pass.some((p) => (p.endsWith('*') ? name.startsWith(p.slice(0, -1)) : p === name))
}

export interface ChildEnvOptions {
  /** The environment to start from (default: this process's). */
  base?: NodeJS.ProcessEnv | Record<string, string | undefined>
  /** Credential-looking variables to keep anyway (names, or `PREFIX_*`), from the user's settings. */
  pass?: readonly string[]
  /** Variables to set on top (never filtered: the caller chose them). */
  set?: Record<string, string | undefined>
}

export function childEnv(opts: ChildEnvOptions = {}): Record<string, string> {
  const out: Record<string, string> = {}
  const pass = opts.pass ?? []
  for (const [name, value] of Object.entries(opts.base ?? process.env)) {
    if (value === undefined) continue
    if (isSecretEnvEntry(name, value) && !passes(pass, name)) continue
    out[name] = value
  }
  for (const [name, value] of Object.entries(opts.set ?? {})) {
    if (value === undefined) delete out[name]
    else out[name] = value
  }
  return out
}

/** The names childEnv would drop from an environment (for messages and tests). */
export function droppedEnvNames(base: Record<string, string | undefined>, pass: readonly string[] = []): string[] {
  return Object.entries(base)
    .filter(([name, value]) => value !== undefined && isSecretEnvEntry(name, value) && !passes(pass, name))
    .map(([name]) => name)
}
