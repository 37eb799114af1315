// The one application window: hardened preferences, our own renderer URL, bounds remembered.
import { BrowserWindow, screen } from 'electron'
import { APP_URL } from './app-protocol'
import { hardenWebContents, hardenedWebPreferences } from './hardening'
import { loadWindowState, saveWindowState, visibleOn, type WindowState } from './window-state'

export interface MainWindowOptions {
  preload: string
  /** window-state.json under userData. */
  stateFile: string
}

const DEFAULT_SIZE = { width: 1440, height: 900 }

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const saved = loadWindowState(options.stateFile)
  const usable =
    saved &&
    visibleOn(
      saved,
      screen.getAllDisplays().map((d) => d.workArea)
    )
      ? saved
      : null
  const win = new BrowserWindow({
    ...(usable ? { x: usable.x, y: usable.y, width: usable.width, height: usable.height } : DEFAULT_SIZE),
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Fanout',
    backgroundColor: '#1e1f22',
    webPreferences: hardenedWebPreferences(options.preload)
  })
  hardenWebContents(win.webContents)
  if (usable?.maximized) win.maximize()
  win.once('ready-to-show', () => win.show())

  let timer: NodeJS.Timeout | null = null
  const persist = () => {
    if (win.isDestroyed()) return
    const b = win.getNormalBounds()
    const state: WindowState = { x: b.x, y: b.y, width: b.width, height: b.height, maximized: win.isMaximized() }
    try {
      saveWindowState(options.stateFile, state)
    } catch {} // losing the window size is not worth an error dialog
  }
  const later = () => {
    if (timer) clearTimeout(timer)
    timer = setTimeout(persist, 500)
  }
  win.on('resize', later)
  win.on('move', later)
  win.on('close', () => {
    if (timer) clearTimeout(timer)
    persist()
  })

  void win.loadURL(APP_URL)
  return win
}
