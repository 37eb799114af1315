// The app-wide commands with a shortcut and a place in the desktop menu: one table read by the Electron menu
// (which shows each shortcut without registering it) and by the page, which handles every key itself so the
// same keys work in the app and in browser mode. What a command does is registered in the page
// (renderer/src/commands/registry.ts); the menu sends the command's id there.
//
// Keys are written `Mod+K` (Cmd on macOS, Ctrl elsewhere), `Alt+N`, `?`. They avoid what a browser keeps for
// itself (Ctrl+N, Ctrl+T, Ctrl+W…) and the menus' Alt mnemonics (F, E, V, W, H).

export type MenuName = 'file' | 'view' | 'go' | 'help'

export interface AppCommand {
  id: string
  /** As a menu item reads (title case, … when it opens something that asks more). */
  label: string
  keys?: string
  menu: MenuName
}

export const APP_COMMANDS = [
  { id: 'new-session', label: 'New Session', keys: 'Alt+N', menu: 'file' },
  { id: 'settings', label: 'Settings…', keys: 'Mod+,', menu: 'file' },
  { id: 'palette', label: 'Command Palette…', keys: 'Mod+K', menu: 'view' },
  { id: 'agents-editor', label: 'Agents Editor', keys: 'Alt+A', menu: 'view' },
  { id: 'overview.tidy', label: 'Tidy the Overview', keys: 'Alt+T', menu: 'view' },
  { id: 'overview.density', label: 'Next Overview Density', keys: 'Alt+D', menu: 'view' },
  // Search opens the search view (renderer/src/commands/app-actions.tsx registers it, as any view may).
  { id: 'search', label: 'Search…', keys: 'Mod+Shift+F', menu: 'go' },
  { id: 'next-attention', label: 'Next Agent Needing You', keys: 'Alt+J', menu: 'go' },
  { id: 'permissions', label: 'Permission Requests', keys: 'Alt+P', menu: 'go' },
  { id: 'shortcuts', label: 'Keyboard Shortcuts', keys: '?', menu: 'help' }
] as const satisfies readonly AppCommand[]

export type AppCommandId = (typeof APP_COMMANDS)[number]['id']

export const appCommand = (id: string): AppCommand | undefined => APP_COMMANDS.find((c) => c.id === id)

/** An Electron accelerator for our key notation (`Mod+K` → `CmdOrCtrl+K`), or undefined for none. */
export function electronAccelerator(keys: string | undefined): string | undefined {
  if (!keys) return undefined
  return keys
    .split('+')
    .map((part, i, all) => (part === 'Mod' && i < all.length - 1 ? 'CmdOrCtrl' : part === ',' ? ',' : part))
    .join('+')
}
