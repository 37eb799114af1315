// The commands a folder offers, with the enabled plugins' (runtime/plugins/): their `commands/` as
// `plugin:name` and their skills. One function for the CLI's `-p`, the session and the prompt box's `/` menu, so
// the three never list different commands.
import { loadPlugins, pluginCommandDirs } from '../plugins'
import type { CommandDefinition } from './command-file'
import { loadCommands, type CommandFolder } from './load-commands'

export interface FolderCommandsOptions {
  /** More command folders beside the plugins' (a caller's own). */
  extraFolders?: readonly CommandFolder[]
  /** `--plugin-dir` folders beside the plugins the settings enable. */
  pluginDirs?: readonly string[]
}

export function loadFolderCommands(cwd: string, home: string, opts: FolderCommandsOptions = {}): Promise<CommandDefinition[]> {
  const plugins = loadPlugins({ cwd, home, ...(opts.pluginDirs ? { pluginDirs: opts.pluginDirs } : {}) })
  return loadCommands({
    cwd,
    home,
    extraFolders: [...(opts.extraFolders ?? []), ...pluginCommandDirs(plugins)],
    ...(plugins.pluginDirs.length ? { pluginDirs: plugins.pluginDirs } : {})
  })
}
