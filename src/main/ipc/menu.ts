// The application menu: standard roles (so copy/paste, undo, zoom and full screen work with the usual
// shortcuts on every platform) plus Open Folder.
import type { MenuItemConstructorOptions } from 'electron'

export interface MenuActions {
  openFolder(): void
}

export function buildMenuTemplate(platform: NodeJS.Platform, actions: MenuActions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin'
  const template: MenuItemConstructorOptions[] = []
  if (mac) template.push({ role: 'appMenu' })
  template.push(
    {
      label: '&File',
      submenu: [
        { label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFolder() },
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' }
      ]
    },
    { role: 'editMenu' },
    {
      label: '&View',
      submenu: [
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
    { role: 'windowMenu' }
  )
  return template
}
