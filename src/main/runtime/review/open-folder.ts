// Opens a folder in the system's file manager where Fanout runs without Electron (browser mode, which
// serves only this machine): `xdg-open` on Linux, `open` on macOS, `explorer` on Windows. The Electron app
// passes shell.openPath instead. A machine without one says so; the path is shown to copy instead.
import { spawnChild } from '../security/spawn'
import { errorMessage } from '../../../shared/error-message'

/** Resolves with null once the opener started, else with why not. */
export type OpenPath = (path: string) => Promise<string | null>

const OPENERS: Record<string, string> = { darwin: 'open', win32: 'explorer' }

export const openWithSystem: OpenPath = (path) =>
  new Promise((resolve) => {
    const command = OPENERS[process.platform] ?? 'xdg-open'
    let child
    try {
      // The file manager gets the credential-free environment: no API key or token rides along into it.
      child = spawnChild(command, [path], { detached: true, stdio: 'ignore' })
    } catch (err) {
      resolve(`${command} could not be started: ${errorMessage(err)}`)
      return
    }
    child.once('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'ENOENT' ? `no file manager opener (${command}) is installed here` : `${command} failed: ${err.message}`)
    )
    child.once('spawn', () => {
      child.unref()
      resolve(null)
    })
  })
