// The parts a session builds from its options before its agents can be served: MCP servers and hooks
// (extensions), agent definitions and prompts, the Bash sandbox, permission requests and the settings that
// reload them all. Each gets only the values it needs; they reach the agents through AgentServices.
import type { AgentEvent } from '../../../../shared/events'
import { credentialsPath, resolveDataDir } from '../../store'
import type { AgentRegistry } from '../runs/agent-registry'
import type { MainAgentConfig } from '../runs/main-agent'
import { SessionExtensions } from './extensions'
import { SessionDefinitions } from './session-definitions'
import type { AgentSessionOptions } from './session-options'
import { SessionPermissions } from './session-permissions'
import { SessionSandbox } from './session-sandbox'
import { SessionSettings } from './session-settings'

export interface PartsInput {
  options: AgentSessionOptions
  sessionId: string
  home: string
  mainAgentId: string
  registry: AgentRegistry
  toolOutputDir: string
  mainConfig: MainAgentConfig
  emit(event: AgentEvent): void
  /** Counts work (an MCP server's start) towards idle(). */
  track(work: Promise<unknown>): void
}

export interface SessionParts {
  extensions: SessionExtensions
  definitions: SessionDefinitions
  sandbox: SessionSandbox
  permissions: SessionPermissions
  settings: SessionSettings
}

export function buildSessionParts(p: PartsInput): SessionParts {
  const { options, sessionId, home, mainAgentId, registry, emit } = p
  // A settings `env` entry passes the credential filter: the person wrote it.
  const passEnv = [...(options.passEnvironment ?? []), ...Object.keys(options.env ?? {})]
  const extensions = new SessionExtensions({
    sessionId,
    cwd: options.cwd,
    home,
    mainAgentId,
    dataDir: options.dataDir,
    registry,
    emit,
    track: p.track,
    ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}),
    ...(options.mcpStartTimeoutMs ? { mcpStartTimeoutMs: options.mcpStartTimeoutMs } : {}),
    ...(options.strictMcpConfig ? { strictMcp: true } : {}),
    ...(options.managedSettingsFile !== undefined ? { managedSettingsFile: options.managedSettingsFile } : {}),
    ...(options.flagSettings ? { flagSettings: options.flagSettings } : {}),
    ...(passEnv.length ? { passEnv } : {}),
    ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
    ...(options.pluginDirs ? { pluginDirs: options.pluginDirs } : {})
  })
  const definitions = new SessionDefinitions({
    cwd: options.cwd,
    home,
    ...(options.agentSources ? { agentSources: options.agentSources } : {}),
    ...(options.pluginDirs ? { pluginDirs: options.pluginDirs } : {}),
    ...(options.managedSettingsFile !== undefined ? { managedSettingsFile: options.managedSettingsFile } : {})
  })
  // The sandbox asks the permission settings (read at each reload) whether it is turned off and where commands may connect.
  const sandbox: SessionSandbox = new SessionSandbox(
    {
      sessionId,
      mainAgentId,
      emit,
      allowedDomains: () => permissions.settings?.sandbox.allowedDomains ?? [],
      secretFiles: () => [credentialsPath(options.dataDir ?? resolveDataDir())],
      ...(options.sandboxRuntime ? { runtime: options.sandboxRuntime } : {}),
      ...(passEnv.length ? { passEnv } : {}),
      ...(options.env ? { env: options.env } : {})
    },
    () => permissions.settings?.sandbox.disabledBy,
    () => options.headless === true
  )
  const permissions = new SessionPermissions(
    { sessionId, cwd: options.cwd, home, registry, emit, toolOutputDir: p.toolOutputDir, extensions, sandbox },
    options
  )
  const settings = new SessionSettings({ options, home, definitions, extensions, permissions, mainConfig: p.mainConfig })
  return { extensions, definitions, sandbox, permissions, settings }
}
