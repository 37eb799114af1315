// Opens a folder in the system's file manager where Fanout runs without Electron (browser mode, which
// serves only this machine): `xdg-open` on Linux, `open` on macOS, `explorer` on Windows. The Electron app
// passes shell.openPath instead. A machine without one says so; the path is shown to copy instead.
// Also in a code editor or a terminal: the first of a short list of programs that starts (`$VISUAL` first
// for an editor), each through the one spawn helper, detached, with the credential-free environment.
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

/** A program and how it is given the folder. */
interface Launcher {
  command: string
  args: (path: string) => string[]
}

const EDITORS: Launcher[] = ['code', 'cursor', 'zed', 'subl', 'codium'].map((command) => ({ command, args: (p) => [p] }))

const TERMINALS: Record<string, Launcher[]> = {
  darwin: [{ command: 'open', args: (p) => ['-a', 'Terminal', p] }],
  win32: [{ command: 'wt', args: (p) => ['-d', p] }],
  linux: [
    { command: 'x-terminal-emulator', args: () => [] },
    { command: 'gnome-terminal', args: (p) => [`--working-directory=${p}`] },
    { command: 'konsole', args: (p) => ['--workdir', p] },
    { command: 'xfce4-terminal', args: (p) => [`--working-directory=${p}`] },
    { command: 'kitty', args: (p) => ['--directory', p] },
    { command: 'alacritty', args: (p) => ['--working-directory', p] },
    { command: 'xterm', args: () => [] }
  ]
}

/** Starts a program detached in `cwd`; null once it started, else why not (ENOENT: not installed). */
function start(l: Launcher, path: string): Promise<{ missing: boolean; problem: string } | null> {
  return new Promise((resolve) => {
    let child
    try {
      child = spawnChild(l.command, l.args(path), { cwd: path, detached: true, stdio: 'ignore' })
    } catch (err) {
      resolve({ missing: false, problem: `${l.command} could not be started: ${errorMessage(err)}` })
      return
    }
    child.once('error', (err: NodeJS.ErrnoException) =>
      resolve(err.code === 'ENOENT' ? { missing: true, problem: '' } : { missing: false, problem: `${l.command} failed: ${err.message}` })
    )
    child.once('spawn', () => {
      child.unref()
      resolve(null)
    })
  })
}

async function firstThatStarts(launchers: Launcher[], path: string, what: string): Promise<string | null> {
  for (const l of launchers) {
    const r = await start(l, path)
    if (!r) return null
    if (!r.missing) return r.problem
  }
  return `no ${what} is installed here (looked for ${launchers.map((l) => l.command).join(', ')})`
}

/** The person's editor: `$VISUAL` when it is a windowed one (a terminal editor needs a terminal), else a known one on PATH. */
export function openInEditor(path: string, env: Record<string, string | undefined> = process.env): Promise<string | null> {
  const visual = env.VISUAL?.trim()
  const own: Launcher[] =
    visual && !/^(vi|vim|nvim|nano|emacs -nw|ed|micro|hx)$/.test(visual) && !/\s/.test(visual) ? [{ command: visual, args: (p) => [p] }] : []
  return firstThatStarts([...own, ...EDITORS], path, 'code editor')
}

export function openInTerminal(path: string): Promise<string | null> {
  return firstThatStarts(TERMINALS[process.platform] ?? TERMINALS.linux, path, 'terminal')
}
