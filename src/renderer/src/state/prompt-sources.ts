// What the prompt box's menus list, asked of the host once per folder while the page is open (commands)
// or for a short while (files: a new file shows up in the picker within FILES_FRESH_MS).
import type { CommandInfo } from '../../../shared/prompt-commands'
import { call } from './app-state'

const FILES_FRESH_MS = 15_000
const commands = new Map<string, Promise<CommandInfo[]>>()
const files = new Map<string, { at: number; list: Promise<{ files: string[]; complete: boolean }> }>()

export function folderCommands(cwd: string): Promise<CommandInfo[]> {
  let p = commands.get(cwd)
  if (!p) {
    p = call('folder.commands', { cwd }).then((r) => r.commands)
    p.catch(() => commands.delete(cwd))
    commands.set(cwd, p)
  }
  return p
}

export function folderFiles(cwd: string): Promise<{ files: string[]; complete: boolean }> {
  const cached = files.get(cwd)
  if (cached && Date.now() - cached.at < FILES_FRESH_MS) return cached.list
  const list = call('folder.files', { cwd })
  list.catch(() => files.delete(cwd))
  files.set(cwd, { at: Date.now(), list })
  return list
}
