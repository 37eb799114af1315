// The application menu: standard roles (so copy/paste, undo, zoom and full screen work with the usual
// shortcuts on every platform), Open Folder, and the app's own commands (shared/app-commands.ts). Those show
// their shortcuts without registering them: the page handles the keys itself, the same in browser mode, and
// a click sends the command to the page.
import type { MenuItemConstructorOptions } from 'electron'
import { APP_COMMANDS, electronAccelerator, type MenuName } from '../../shared/app-commands'

export interface MenuActions {
  openFolder(): void
  /** Runs one of APP_COMMANDS in the page. */
  runCommand(id: string): void
}

export function buildMenuTemplate(platform: NodeJS.Platform, actions: MenuActions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin'
  const commands = (menu: MenuName): MenuItemConstructorOptions[] =>
    APP_COMMANDS.filter((c) => c.menu === menu).map((c) => {
      const accelerator = electronAccelerator('keys' in c ? c.keys : undefined)
      return { id: c.id, label: c.label, ...(accelerator ? { accelerator, registerAccelerator: false } : {}), click: () => actions.runCommand(c.id) }
    })
  const template: MenuItemConstructorOptions[] = []
  if (mac) template.push({ role: 'appMenu' })
  template.push(
    {
      label: '&File',
      submenu: [
        ...commands('file'),
        { type: 'separator' },
        { label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFolder() },
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' }
      ]
    },
    { role: 'editMenu' },
    {
      label: '&View',
      submenu: [
        ...commands('view'),
        { type: 'separator' },
        { role: 'reload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' }
      ]
    },
    { label: '&Go', submenu: commands('go') },
    { role: 'windowMenu' },
    { role: 'help', submenu: commands('help') }
  )
  return template
}
