// Folders an agent may write in every mode (its own memory folder): a path counts as inside only where its
// real location is, so a symlink in the folder that points elsewhere does not open a way out of it.
import { realpathSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { isInside } from '../tools/paths'

/** The real path of `p`, or of its nearest existing ancestor with the rest appended (for files not written yet). */
function realish(p: string): string {
  let dir = resolve(p)
  const rest: string[] = []
  for (;;) {
    try {
      return join(realpathSync(dir), ...rest)
    } catch {
      const parent = dirname(dir)
      if (parent === dir) return resolve(p)
      rest.unshift(basename(dir))
      dir = parent
    }
  }
}

export function insideRealDirs(path: string, dirs: readonly string[]): boolean {
  const real = realish(path)
  return dirs.some((d) => {
    const root = realish(d)
    return real !== root && isInside(root, real)
  })
}
