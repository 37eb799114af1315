// The desktop app's lifecycle: one instance, the app scheme, session policies, the runtime host, the
// window, IPC and the menu. The host factory is passed in so this file does not depend on the runtime.
import { app, BrowserWindow, dialog, ipcMain, Menu, session, shell } from 'electron'
import { join } from 'node:path'
import type { RuntimeHost } from '../../shared/host'
import { PUSH_CHANNELS, type Workspace } from '../../shared/ipc-contract'
import type { KeyStore } from '../runtime/setup'
import { resolveDataDir } from '../runtime/store/data-dir'
import { handleAppProtocol, registerAppScheme } from './app-protocol'
import { hardenWebContents, installSessionPolicies } from './hardening'
import { createMainWindow } from './main-window'
import { buildMenuTemplate } from './menu'
import { connectPushes, registerIpc } from './register-ipc'
import { createSafeStorageKeyStore } from './safe-key-store'
import { errorMessage } from '../../shared/error-message'

export interface StartAppOptions {
  createHost(options: {
    cwd: string
    dataDir: string
    keyStore: KeyStore
    trashItem: (path: string) => Promise<void>
    openPath: (path: string) => Promise<string | null>
    owner: string
  }): Promise<RuntimeHost>
  /** The folder to open (from `--fanout-cwd=`), else the process's cwd. */
  cwd: string
  /** out/main, where the built main bundle lives. */
  outDir: string
}

export function cwdFromArgv(argv: string[], fallback: string): string {
  const arg = argv.find((a) => a.startsWith('--fanout-cwd='))
  return arg ? arg.slice('--fanout-cwd='.length) : fallback
}

export function startApp(options: StartAppOptions): void {
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return
  }
  registerAppScheme()
  app.on('web-contents-created', (_e, contents) => hardenWebContents(contents))
  app.on('window-all-closed', () => app.quit())

  let win: BrowserWindow | null = null
  app.on('second-instance', () => {
    if (win?.isMinimized()) win.restore()
    win?.focus()
  })

  void app.whenReady().then(async () => {
    installSessionPolicies(session.defaultSession)
    handleAppProtocol(join(options.outDir, '../renderer'))
    let host: RuntimeHost
    try {
      // The same data folder as the CLI and browser mode, so sessions started anywhere show up everywhere.
      const dataDir = resolveDataDir()
      // A deleted session goes to the system's own trash (Recycle Bin, Finder's Trash, the desktop's trash).
      host = await options.createHost({
        cwd: options.cwd,
        dataDir,
        keyStore: createSafeStorageKeyStore(dataDir),
        trashItem: (path) => shell.trashItem(path),
        // An agent's worktree folder in the system's file manager; shell.openPath answers '' or why it failed.
        openPath: async (path) => (await shell.openPath(path)) || null,
        owner: 'the Fanout app'
      })
    } catch (err) {
      dialog.showErrorBox('Fanout could not start', `The agent runtime failed to start: ${errorMessage(err)}`)
      app.quit()
      return
    }
    app.on('before-quit', () => void host.close())

    const pickFolder = async (): Promise<{ workspace: Workspace | null }> => {
      const r = win ? await dialog.showOpenDialog(win, { title: 'Open Folder', properties: ['openDirectory', 'createDirectory'] }) : null
      if (!r || r.canceled || !r.filePaths[0]) return { workspace: null }
      return host.handlers['workspace.open']({ cwd: r.filePaths[0] })
    }

    win = createMainWindow({ preload: join(options.outDir, '../preload/index.cjs'), stateFile: join(app.getPath('userData'), 'window-state.json') })
    const contents = win.webContents
    registerIpc({ ipcMain, host, contents: () => (win && !win.isDestroyed() ? win.webContents : null), shell: { 'workspace.pickFolder': pickFolder } })
    connectPushes(host, contents)
    win.on('closed', () => (win = null))

    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        buildMenuTemplate(process.platform, {
          openFolder: () =>
            void pickFolder().then(({ workspace }) => {
              if (workspace && !contents.isDestroyed()) contents.send(PUSH_CHANNELS.notice, { type: 'workspace_changed', workspace })
            }),
          runCommand: (id) => {
            if (!contents.isDestroyed()) contents.send(PUSH_CHANNELS.notice, { type: 'command', id })
          }
        })
      )
    )
  })
}
