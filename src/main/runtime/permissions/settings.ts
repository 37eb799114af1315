// Permission settings from Claude Code's files, merged: `~/.claude/settings.json` (user),
// `<project>/.claude/settings.json` (project), `<project>/.claude/settings.local.json` (local) and the managed
// file. Rules from all files apply (deny wins anyway); for defaultMode the most specific file wins.
// A broken file never stops a run: every problem becomes a Diagnostic naming the file and line, and the rest
// of the file still counts. A malformed deny rule is applied to its whole tool rather than dropped.
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { PERMISSION_MODES, type Diagnostic, type PermissionMode } from '../../../shared/agent-definition'
import { claudeSettingsFiles } from '../store/claude-settings-files'
import { readConfigFile } from '../store/read-config'
import { jsonErrorOffset } from './json-position'
import { emptyRules, parseRule, RULE_BEHAVIORS, type PermissionRules, type RuleSource } from './rules'
import { errorMessage } from '../../../shared/error-message'

export { MANAGED_SETTINGS_FILE } from '../store/claude-settings-files'

/** The `sandbox` section, as far as a user's own files say it (a project cannot widen its own sandbox). */
export interface SandboxSettings {
  /** Set when user or managed settings turned the sandbox off (`sandbox.enabled: false`). */
  disabledBy?: string
  /** Domains sandboxed commands may reach (`sandbox.network.allowedDomains`). */
  allowedDomains: string[]
}

export interface PermissionSettings {
  sandbox: SandboxSettings
  rules: PermissionRules
  defaultMode?: PermissionMode
  additionalDirectories: string[]
  diagnostics: Diagnostic[]
  /** Settings files that were found and read, lowest precedence first. */
  files: string[]
}

/** A grant a settings file makes: an allow rule, a default mode, an extra folder. */
export interface PermissionPreapproval {
  file: string
  source: RuleSource
  kind: 'allow' | 'defaultMode' | 'additionalDirectory'
  value: string
}

export interface LoadPermissionSettingsOptions {
  /** The project directory (where `.claude/` lives). */
  cwd: string
  /** Home directory for user settings (default: the OS home). */
  home?: string
  /** Managed settings file; `null` to skip. Default /etc/claude-code/managed-settings.json. */
  managedFile?: string | null
  /**
   * Grants to leave out, as if not written: a folder's own allow rules, looser defaultMode and extra folders
   * wait for the person to approve them (see trust/). Deny and ask rules always apply.
   */
  withhold?: (grant: PermissionPreapproval) => boolean
}

function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset))
  const line = before.split('\n').length
  return { line, column: offset - before.lastIndexOf('\n') }
}

function jsonErrorPosition(text: string): { line: number; column: number } {
  const at = jsonErrorOffset(text)
  return at === -1 ? { line: 1, column: 1 } : lineColumnAt(text, at)
}

/** The line of the first occurrence of a JSON value in the file, so diagnostics point at it. */
function locate(text: string, value: unknown): { line: number; column: number } {
  const at = text.indexOf(JSON.stringify(value))
  return at === -1 ? { line: 1, column: 1 } : lineColumnAt(text, at)
}

function loadFile(
  file: string,
  source: RuleSource,
  root: string,
  home: string,
  out: PermissionSettings,
  withhold?: (grant: PermissionPreapproval) => boolean
): void {
  const held = (kind: PermissionPreapproval['kind'], value: string) => withhold?.({ file, source, kind, value }) === true
  const read = readConfigFile(file)
  if ('missing' in read) return
  if ('error' in read) {
    out.diagnostics.push({
      file,
      line: 1,
      column: 1,
      severity: 'error',
      code: 'settings-unreadable',
      message: `Could not read settings: this file ${read.error}.`
    })
    return
  }
  const text = read.text
  out.files.push(file)
  if (text.trim() === '') return
  const diag = (at: { line: number; column: number }, severity: Diagnostic['severity'], code: string, message: string): void => {
    out.diagnostics.push({ file, ...at, severity, code, message })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    const message = errorMessage(err)
    diag(
      jsonErrorPosition(text),
      'error',
      'settings-invalid-json',
      `This settings file is not valid JSON (${message}); none of its permission rules apply until it is fixed.`
    )
    return
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    diag({ line: 1, column: 1 }, 'error', 'settings-not-object', 'Settings must be a JSON object like {"permissions": {"allow": [...]}}.')
    return
  }
  readSandbox(json as Record<string, unknown>, text, source, file, diag, out)
  const permissions = (json as Record<string, unknown>).permissions
  if (permissions === undefined) return
  if (typeof permissions !== 'object' || permissions === null || Array.isArray(permissions)) {
    diag(locate(text, 'permissions'), 'error', 'permissions-not-object', '"permissions" must be an object with "allow", "deny" and "ask" lists.')
    return
  }
  const p = permissions as Record<string, unknown>
  for (const behavior of RULE_BEHAVIORS) {
    const list = p[behavior]
    if (list === undefined) continue
    if (!Array.isArray(list)) {
      diag(locate(text, behavior), 'error', 'permission-list-not-array', `"permissions.${behavior}" must be a list of rule strings, e.g. ["Bash(npm test:*)"].`)
      continue
    }
    for (const entry of list) {
      if (typeof entry !== 'string') {
        diag(
          locate(text, entry),
          'error',
          'permission-rule-not-string',
          `Each entry of "permissions.${behavior}" must be a string; ${JSON.stringify(entry)} is ignored.`
        )
        continue
      }
      if (behavior === 'allow' && held('allow', entry)) continue
      const parsed = parseRule(entry, source, root)
      if (parsed.ok) {
        out.rules[behavior].push(parsed.rule)
        continue
      }
      if (behavior !== 'allow' && parsed.toolName) {
        // Dropping a deny (or ask) rule because of a typo would silently loosen safety: apply it to the whole tool.
        out.rules[behavior].push({ toolName: parsed.toolName, source, root, raw: entry })
        diag(
          locate(text, entry),
          'error',
          'permission-rule-malformed',
          `Malformed rule in "permissions.${behavior}": ${parsed.error}. Until it is fixed it applies to every ${parsed.toolName} call.`
        )
      } else {
        diag(locate(text, entry), 'error', 'permission-rule-malformed', `Malformed rule in "permissions.${behavior}": ${parsed.error}. It is ignored.`)
      }
    }
  }
  const mode = p.defaultMode
  if (mode !== undefined) {
    if (typeof mode === 'string' && (PERMISSION_MODES as readonly string[]).includes(mode)) {
      if (!held('defaultMode', mode)) out.defaultMode = mode as PermissionMode
    } else
      diag(
        locate(text, mode),
        'warning',
        'permission-mode-unknown',
        `Unknown "defaultMode" ${JSON.stringify(mode)}; expected one of ${PERMISSION_MODES.join(', ')}. It is ignored.`
      )
  }
  const dirs = p.additionalDirectories
  if (dirs !== undefined) {
    if (!Array.isArray(dirs) || dirs.some((d) => typeof d !== 'string'))
      diag(
        locate(text, 'additionalDirectories'),
        'error',
        'additional-directories-invalid',
        '"permissions.additionalDirectories" must be a list of directory paths.'
      )
    else
      for (const d of dirs as string[])
        if (!held('additionalDirectory', d)) out.additionalDirectories.push(d.startsWith('~/') ? join(home, d.slice(2)) : resolve(root, d))
  }
}

/** Only the person's own settings (user, managed) may turn the sandbox off or open it to the network. */
function readSandbox(
  json: Record<string, unknown>,
  text: string,
  source: RuleSource,
  file: string,
  diag: (at: { line: number; column: number }, severity: Diagnostic['severity'], code: string, message: string) => void,
  out: PermissionSettings
): void {
  const sandbox = json.sandbox
  if (sandbox === undefined) return
  if (typeof sandbox !== 'object' || sandbox === null || Array.isArray(sandbox))
    return diag(
      locate(text, 'sandbox'),
      'error',
      'sandbox-not-object',
      '"sandbox" must be an object like {"network": {"allowedDomains": ["registry.npmjs.org"]}}.'
    )
  const s = sandbox as Record<string, unknown>
  const own = source === 'user' || source === 'managed'
  if (s.enabled === false) {
    if (own) out.sandbox.disabledBy = `"sandbox": {"enabled": false} in ${file}`
    else
      diag(
        locate(text, 'enabled'),
        'warning',
        'sandbox-widen-ignored',
        `"sandbox.enabled": false is ignored here: only your user settings (~/.claude/settings.json) can turn the Bash sandbox off, never a project's own files.`
      )
  }
  const network = s.network as Record<string, unknown> | undefined
  const domains = network && typeof network === 'object' ? network.allowedDomains : undefined
  if (domains === undefined) return
  if (!Array.isArray(domains) || domains.some((d) => typeof d !== 'string'))
    return diag(locate(text, 'allowedDomains'), 'error', 'sandbox-domains-invalid', '"sandbox.network.allowedDomains" must be a list of domain names.')
  if (own) out.sandbox.allowedDomains.push(...(domains as string[]))
  else if (domains.length)
    diag(
      locate(text, 'allowedDomains'),
      'warning',
      'sandbox-widen-ignored',
      `"sandbox.network.allowedDomains" is ignored here: a project cannot open the network for its own commands. Put the domains in your user settings (~/.claude/settings.json) if you trust them.`
    )
}

export function loadPermissionSettings(opts: LoadPermissionSettingsOptions): PermissionSettings {
  const home = opts.home ?? homedir()
  const cwd = resolve(opts.cwd)
  const out: PermissionSettings = { sandbox: { allowedDomains: [] }, rules: emptyRules(), additionalDirectories: [], diagnostics: [], files: [] }
  // A missing file, and a placeholder of the Bash sandbox (an Edit deny rule on an absent settings file), are
  // no settings file: readConfigFile says so (store/read-config.ts).
  for (const c of claudeSettingsFiles({ cwd, home, managedFile: opts.managedFile })) loadFile(c.file, c.level, c.root, home, out, opts.withhold)
  return out
}
