// From Claude Code's command line and settings to a session's options: the model (--model > ANTHROPIC_MODEL >
// settings `model` > Fanout's default), the permission mode (flag > --settings > the settings files' defaultMode,
// which the session reads with folder trust > Fanout's defaultPermissionMode), the settings' `env` for Bash,
// hooks and MCP servers, permission rules from --allowedTools/--disallowedTools/--settings, MCP servers from
// --mcp-config, the system prompt flags, --add-dir, --session-id, --name and -c/--continue.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { PERMISSION_MODES, type PermissionMode } from '../../shared/agent-definition'
import { errorMessage } from '../../shared/error-message'
import type { AgentSessionOptions } from '../runtime/orchestration'
import { mergeRules, rulesFrom, type PermissionRules } from '../runtime/permissions'
import type { RuntimeConfig } from '../runtime/setup'
import { listSessions } from '../runtime/store/list-sessions'
import {
  chooseModel,
  fallbackModel,
  FOLDER_LEVELS,
  flagDefaultMode,
  flagPermissions,
  settingsEnv,
  settingsLayers,
  type SettingsLayer
} from '../runtime/store/claude-settings'
import { UsageError, type RunArgs } from './run-args'

export interface ClaudeRunOptions {
  /** Options for AgentSession.create/open on top of the CLI's own. */
  options: Partial<AgentSessionOptions> & { passEnvironment: string[] }
  /** The mode the run starts in, as far as the command line and --settings say (undefined: the session decides). */
  permissionMode?: PermissionMode
  /** -c/--continue: the session to resume. */
  resume?: string
  /** One line each for stderr. */
  notes: string[]
  /** Once the session knows whether the folder is trusted: the folder's own settings `env`, if it is. */
  afterOpen(folderTrusted: boolean): string[]
}

/** Sets the variables for this process's children; their names pass the credential filter (the person wrote them). */
function applyEnv(env: Record<string, string>, pass: string[]): void {
  for (const [name, value] of Object.entries(env)) {
    process.env[name] = value
    if (!pass.includes(name)) pass.push(name)
  }
}

/** Reads the settings layers and applies the ones that do not come with the folder; call before the model client is made. */
export function settingsBeforeConfig(args: RunArgs): { layers: SettingsLayer[]; pass: string[] } {
  const layers = settingsLayers({ cwd: args.cwd, ...(args.settings ? { flag: args.settings } : {}) })
  const pass: string[] = []
  applyEnv(
    settingsEnv(
      layers.filter((l) => !FOLDER_LEVELS.includes(l.level)),
      false
    ).env,
    pass
  )
  return { layers, pass }
}

export async function claudeRunOptions(args: RunArgs, config: RuntimeConfig, layers: SettingsLayer[], pass: string[]): Promise<ClaudeRunOptions> {
  const notes = [...args.notes]
  const model = chooseModel({ ...(args.model ? { flag: args.model } : {}), env: process.env, layers, fallback: fallbackModel(config.dataDir) })
  let permissionMode = args.permissionMode
  const fromFlagSettings = flagDefaultMode(layers)
  if (!permissionMode && fromFlagSettings) {
    const mode = fromFlagSettings === 'manual' ? 'default' : fromFlagSettings
    if ((PERMISSION_MODES as readonly string[]).includes(mode)) permissionMode = mode as PermissionMode
    else notes.push(`--settings: permissions.defaultMode '${fromFlagSettings}' is not a mode Fanout knows; left out.`)
  }
  const fromSettings = flagPermissions(layers)
  let rules: PermissionRules
  try {
    rules = mergeRules(
      rulesFrom({ allow: args.allowedTools, deny: args.disallowedTools }, 'cli', args.cwd),
      rulesFrom({ allow: fromSettings.allow, deny: fromSettings.deny, ask: fromSettings.ask }, 'cli', args.cwd)
    )
  } catch (err) {
    throw new UsageError(`Error: Invalid permission rule: ${errorMessage(err)}`)
  }
  const flagLayer = layers.find((l) => l.level === 'flag')
  let resume = args.resume
  if (args.continueLatest) {
    const { sessions } = await listSessions(config.dataDir)
    const latest = sessions.filter((s) => s.cwd === args.cwd).sort((a, b) => b.updatedAt - a.updatedAt)[0]
    // Nothing to continue: a new session, as Claude Code starts one.
    if (latest) resume = latest.sessionId
  } else if (resume && (!/^[\w-]+$/.test(resume) || !existsSync(join(config.dataDir, 'sessions', resume))))
    throw new UsageError(`No conversation found with session ID: ${resume}`)
  // --strict-mcp-config: the command line's servers only, as in Claude Code (not even Fanout's own settings').
  const fanoutServers = args.strictMcpConfig ? undefined : config.settings.mcpServers
  const mcpServers = args.mcpServers || fanoutServers ? { ...fanoutServers, ...args.mcpServers } : undefined
  const rulesGiven = rules.allow.length + rules.deny.length + rules.ask.length > 0
  const options: ClaudeRunOptions['options'] = {
    ...(model.model ? { model: model.model } : {}),
    ...(permissionMode ? { permissionMode } : {}),
    fallbackPermissionMode: config.settings.defaultPermissionMode,
    ...(rulesGiven ? { permissionRules: rules } : {}),
    ...(mcpServers ? { mcpServers } : {}),
    ...(args.strictMcpConfig ? { strictMcpConfig: true } : {}),
    ...(args.maxBudgetUsd !== undefined ? { limits: { ...config.limits, budgetUsd: args.maxBudgetUsd } } : {}),
    ...(args.systemPrompt !== undefined ? { systemPrompt: args.systemPrompt } : {}),
    ...(args.appendSystemPrompt !== undefined ? { appendSystemPrompt: args.appendSystemPrompt } : {}),
    ...(args.addDirs.length || fromSettings.dirs.length ? { additionalDirectories: [...args.addDirs, ...fromSettings.dirs] } : {}),
    ...(args.sessionId && !resume ? { sessionId: args.sessionId } : {}),
    ...(args.title ? { title: args.title } : {}),
    ...(args.onlyTools ? { onlyTools: args.onlyTools } : {}),
    // Its hooks run as the person's own (they typed it), read with the settings files at --settings' level.
    ...(flagLayer ? { flagSettings: { file: flagLayer.file, json: flagLayer.value } } : {}),
    // The same array the session hands its children's environment filter: afterOpen adds to it.
    passEnvironment: [...(config.settings.passEnvironment ?? []), ...args.passEnv, ...pass]
  }
  return {
    options,
    ...(permissionMode ? { permissionMode } : {}),
    ...(resume ? { resume } : {}),
    notes,
    afterOpen(folderTrusted: boolean): string[] {
      // Every level again, so the more specific one still wins over the folder's (--settings over local…).
      const { env, withheld } = settingsEnv(layers, folderTrusted)
      applyEnv(env, options.passEnvironment)
      return withheld.length
        ? [
            `the folder's settings set ${withheld.join(', ')} in "env"; not given to commands, hooks or MCP servers in a folder not trusted (pass --trust-project).`
          ]
        : []
    }
  }
}
