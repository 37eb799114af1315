// The commands a folder offers, with the enabled plugins' (runtime/plugins/): their `commands/` as
// `plugin:name` and their skills. One function for the CLI's `-p`, the session and the prompt box's `/` menu, so
// the three never list different commands.
import type { SkillEntry } from '../context/skill-index'
import { loadPlugins, pluginCommandDirs, type Plugins } from '../plugins'
import type { CommandDefinition } from './command-file'
import { loadCommands } from './load-commands'

export interface FolderCommandsOptions {
  /** `--plugin-dir` folders beside the plugins the settings enable. */
  pluginDirs?: readonly string[]
  /** The plugins as the caller already read them (then they are not read again). */
  plugins?: Pick<Plugins, 'plugins' | 'pluginDirs'>
  /** The skills as the caller already found them, plugins' included. */
  skills?: readonly SkillEntry[]
}

export function loadFolderCommands(cwd: string, home: string, opts: FolderCommandsOptions = {}): Promise<CommandDefinition[]> {
  const plugins = opts.plugins ?? loadPlugins({ cwd, home, ...(opts.pluginDirs ? { pluginDirs: opts.pluginDirs } : {}) })
  return loadCommands({
    cwd,
    home,
    extraFolders: pluginCommandDirs(plugins),
    ...(plugins.pluginDirs.length ? { pluginDirs: plugins.pluginDirs } : {}),
    ...(opts.skills ? { skills: opts.skills } : {})
  })
}
