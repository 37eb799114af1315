// What a session reads from disk for its agents' prompts: the agent definitions and the CLAUDE.md files
// (both re-read on reload, so a change applies to the next spawn), and each folder's git status, probed
// once, for the environment part of the system prompts built from them (agent-prompt.ts). A prompt that
// depends on nothing but these (no memory or skills of its own, no worktree) is built once for all the agents
// of its type, folder and model: sixteen siblings get the very same text.
import type { AgentDefinition, LoadedAgent } from '../../../../shared/agent-definition'
import type { ProjectCommand } from '../../../../shared/trust'
import { formatClaudeMd, loadClaudeMd, type ClaudeMdEntry } from '../../context'
import { folderListing } from '../../context/folder-listing'
import { NestedInstructions } from '../../context/nested-instructions'
import { projectRootOf } from '../../context/project-root'
import { discoverSkills, type SkillEntry } from '../../context/skill-index'
import { loadAgents, type LoadAgentsOptions } from '../../definitions'
import { loadPlugins } from '../../plugins'
import { loadFolderCommands, type CommandDefinition } from '../../commands'
import { dirname } from 'node:path'
import { gateAgents, gateClaudeMd, type Approved } from '../../trust'
import { probeGit } from '../../worktrees'
import { agentSystemPrompt } from '../prompts/agent-prompt'
import type { AgentHandle } from '../runs/agent-registry'

export interface SessionDefinitionsOptions {
  cwd: string
  home: string
  /** Extra sources for the definitions loader (plugins, --agents JSON, managed folder). */
  agentSources?: Omit<LoadAgentsOptions, 'cwd' | 'home'>
  /** `--plugin-dir` folders; plugins the settings files enable are found at each reload. */
  pluginDirs?: readonly string[]
  managedSettingsFile?: string | null
}

export class SessionDefinitions {
  private loaded = new Map<string, LoadedAgent>()
  private claudeMd: ClaudeMdEntry[] = []
  private skillIndex: SkillEntry[] = []
  private commandIndex: SkillEntry[] = []
  private readonly gitInfo = new Map<string, ReturnType<typeof probeGit>>()
  private prompts = new WeakMap<AgentDefinition, Map<string, Promise<string>>>()

  constructor(private readonly opts: SessionDefinitionsOptions) {}

  /** The definitions and CLAUDE.md files as read from disk; apply the folder's approvals with gate() before anything uses them. */
  async reload(): Promise<{ agents: LoadedAgent[]; claudeMd: { entries: ClaudeMdEntry[]; root: string } }> {
    const { cwd, home } = this.opts
    // Enabled plugins' agents and skills, read again at each reload: enabling one in settings applies to the next spawn.
    const plugins = loadPlugins({
      cwd,
      home,
      ...(this.opts.pluginDirs ? { pluginDirs: this.opts.pluginDirs } : {}),
      ...(this.opts.managedSettingsFile !== undefined ? { managedFile: this.opts.managedSettingsFile } : {})
    })
    const pluginDirs = [...(this.opts.agentSources?.pluginDirs ?? []), ...plugins.pluginDirs]
    const [agents, claudeMd, root, skills] = await Promise.all([
      loadAgents({ cwd, home, ...this.opts.agentSources, pluginDirs }),
      loadClaudeMd({ cwd, home }),
      projectRootOf(cwd),
      discoverSkills({ cwd, home, pluginDirs })
    ])
    // The plugins and skills just read, not read again: the loader adds the command files.
    const commands = await loadFolderCommands(cwd, home, { plugins, skills })
    this.read = { agents: agents.byType, claudeMd, root }
    this.loaded = new Map()
    this.claudeMd = []
    this.skillIndex = skills
    this.commandIndex = modelCommands(commands, skills)
    return { agents: agents.agents, claudeMd: { entries: claudeMd, root } }
  }

  /** The project's, the user's and the plugins' skills, as last found. */
  skills(): SkillEntry[] {
    return this.skillIndex
  }

  /** The command files the model may call through the Skill tool (not `disable-model-invocation`), as last found. */
  commands(): SkillEntry[] {
    return this.commandIndex
  }

  /** Takes out of the folder's own files what the person has not approved; says, per agent type, what. */
  gate(approved: Approved): Map<string, ProjectCommand[]> {
    const gated = gateAgents(this.read.agents, this.opts.cwd, approved)
    this.loaded = gated.agents
    this.claudeMd = gateClaudeMd(this.read.claudeMd, this.opts.cwd, this.read.root, approved)
    // Prompts built from the earlier definitions and CLAUDE.md are not reused.
    this.prompts = new WeakMap()
    return gated.withheld
  }

  private read: { agents: Map<string, LoadedAgent>; claudeMd: ClaudeMdEntry[]; root: string } = { agents: new Map(), claudeMd: [], root: '' }

  /** The effective definitions by agent type, as last loaded. */
  agents(): Map<string, LoadedAgent> {
    return this.loaded
  }

  /** `warn` hears what the agent runs without (a skill its definition names that does not exist). */
  systemPrompt(
    def: AgentDefinition,
    handle: AgentHandle,
    worktree: { path: string; branch: string; baseCommit?: string } | undefined,
    warn: (message: string) => void
  ): Promise<string> {
    const build = () =>
      agentSystemPrompt(
        { cwd: this.opts.cwd, home: this.opts.home, claudeMd: this.claudeMd, skills: this.skillIndex, git: (cwd) => this.git(cwd), warn },
        def,
        handle,
        worktree
      )
    // Memory and skills are read (and warned about) per agent; a worktree names its own folder and branch.
    if (worktree || def.memory || def.skills?.length) return build()
    // The environment names the day: a prompt built yesterday is not reused today.
    const key = `${handle.cwd}\u0000${handle.model}\u0000${new Date().toDateString()}`
    let byKey = this.prompts.get(def)
    if (!byKey) this.prompts.set(def, (byKey = new Map()))
    let prompt = byKey.get(key)
    if (!prompt) {
      byKey.set(key, (prompt = build()))
      prompt.catch(() => byKey.delete(key))
    }
    return prompt
  }

  /**
   * Context that helps agents of `def` working in `cwd` and may fill their shared prompt prefix up to the model's
   * cache minimum (model/cache-fill.ts): the project's instructions where the definition leaves them out of its
   * prompt, the parent's brief (what the siblings' prompts start with), and a listing of the folder. The same
   * text for every sibling; the listing is read once per folder until a tool that may change files runs.
   */
  async sharedContext(def: AgentDefinition | null, cwd: string, brief = ''): Promise<string> {
    const instructions = def?.omitClaudeMd ? formatClaudeMd(this.claudeMd).trim() : ''
    const listing = await this.listingOf(cwd)
    const parts = [
      instructions ? `<project_instructions>\n${instructions}\n</project_instructions>` : '',
      brief ? `<shared_brief>\n${brief}\n</shared_brief>` : '',
      listing.length ? `<folder_listing root="${cwd}">\n${listing.join('\n')}\n</folder_listing>` : ''
    ].filter(Boolean)
    return parts.length ? ['Context shared by the agents of this task. It may help; your task decides what you read and do.', ...parts].join('\n\n') : ''
  }

  /** Tools that may change files ran (or are about to): the next shared context lists the folder again. */
  filesMayHaveChanged(): void {
    this.listings.clear()
  }

  private listingOf(cwd: string): Promise<string[]> {
    let listing = this.listings.get(cwd)
    if (!listing) this.listings.set(cwd, (listing = folderListing(cwd)))
    return listing
  }

  private readonly listings = new Map<string, Promise<string[]>>()

  /** Null for a definition that leaves CLAUDE.md out (Explore, Plan): it gets none of it later either. */
  async nestedInstructions(def: AgentDefinition | null, handle: AgentHandle): Promise<NestedInstructions | null> {
    if (def?.omitClaudeMd) return null
    const root = await projectRootOf(handle.cwd)
    return new NestedInstructions({ cwd: handle.cwd, home: this.opts.home, root, loaded: this.claudeMd, loadedRoot: this.read.root })
  }

  private git(cwd: string) {
    let probe = this.gitInfo.get(cwd)
    if (!probe) this.gitInfo.set(cwd, (probe = probeGit(cwd)))
    return probe
  }
}

/** Command files as Skill tool entries: Claude Code lists them beside the skills; a skill of the same name wins. */
function modelCommands(commands: readonly CommandDefinition[], skills: readonly SkillEntry[]): SkillEntry[] {
  const taken = new Set(skills.map((s) => s.name))
  return commands
    .filter((c) => c.source !== 'skill' && c.source !== 'built-in' && !c.disableModelInvocation && !taken.has(c.name))
    .map((c) => ({
      name: c.name,
      description: c.description,
      scope: c.source === 'user' ? ('user' as const) : c.source === 'plugin' ? ('plugin' as const) : ('project' as const),
      path: c.path,
      dir: dirname(c.path),
      modelInvocable: true,
      ...(c.argumentHint ? { argumentHint: c.argumentHint } : {}),
      command: { argumentNames: c.argumentNames }
    }))
}
