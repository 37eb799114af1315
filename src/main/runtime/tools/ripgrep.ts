// Locating and running ripgrep. Tools take `ripgrep?: string | false` so tests (and machines without rg)
// exercise the JS fallback explicitly; `undefined` means "use rg when it is on PATH".
import { spawnChild } from '../security/spawn'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

let cached: string | null | undefined

/** Absolute path of `rg` on PATH, or null. Looked up once per process. */
export function findRipgrep(): string | null {
  if (cached !== undefined) return cached
  cached = null
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    const candidate = join(dir, process.platform === 'win32' ? 'rg.exe' : 'rg')
    try {
      accessSync(candidate, constants.X_OK)
      cached = candidate
      break
    } catch {}
  }
  return cached
}

export function ripgrepPath(option: string | false | undefined): string | null {
  if (option === false) return null
  return option ?? findRipgrep()
}

export interface RipgrepRun {
  /** 0 = matches, 1 = no matches, 2 = error (possibly with partial results). */
  code: number | null
  stderr: string
}

/**
 * Runs rg, handing each stdout line to `onLine`; `onLine` returning false stops rg early. `separator` '\0'
 * reads the output of `--null`, where a path may itself hold a newline.
 */
export function runRipgrep(
  rg: string,
  args: string[],
  opts: {
    cwd: string
    signal?: AbortSignal
    onLine: (line: string) => boolean | void
    separator?: '\n' | '\0'
    /** An open file rg reads as its standard input (`-`): a file already opened and checked, never a path. */
    stdin?: number
  }
): Promise<RipgrepRun> {
  const sep = opts.separator ?? '\n'
  return new Promise((resolve, reject) => {
    const child = spawnChild(rg, args, { cwd: opts.cwd, stdio: [opts.stdin ?? 'ignore', 'pipe', 'pipe'] })
    let stderr = ''
    let pending = ''
    let stopped = false
    const stop = (): void => {
      stopped = true
      child.kill('SIGKILL')
    }
    const onAbort = (): void => stop()
    opts.signal?.addEventListener('abort', onAbort, { once: true })
    child.stdout!.setEncoding('utf8')
    child.stdout!.on('data', (chunk: string) => {
      if (stopped) return
      pending += chunk
      let nl: number
      while ((nl = pending.indexOf(sep)) >= 0) {
        const line = pending.slice(0, nl)
        pending = pending.slice(nl + 1)
        if (opts.onLine(line) === false) {
          stop()
          return
        }
      }
    })
    child.stderr!.setEncoding('utf8')
    child.stderr!.on('data', (chunk: string) => {
      if (stderr.length < 10_000) stderr += chunk
    })
    child.on('error', (err) => {
      opts.signal?.removeEventListener('abort', onAbort)
      reject(err)
    })
    child.on('close', (code) => {
      opts.signal?.removeEventListener('abort', onAbort)
      if (!stopped && pending) opts.onLine(pending)
      if (opts.signal?.aborted) reject(new Error('aborted'))
      else resolve({ code: stopped ? 0 : code, stderr: stderr.trim() })
    })
  })
}
