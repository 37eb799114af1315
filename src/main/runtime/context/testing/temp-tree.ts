// Test fixture: a temporary folder with a fake home and a real git repository, filled with real files.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

export interface TempTree {
  root: string
  home: string
  /** A git repository (its root). */
  repo: string
  write(path: string, content: string): string
  cleanup(): void
}

export function makeTempTree(): TempTree {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-ctx-')))
  const home = join(root, 'home')
  const repo = join(root, 'work', 'project')
  mkdirSync(home, { recursive: true })
  mkdirSync(repo, { recursive: true })
  execFileSync('git', ['init', '--quiet', repo], { stdio: 'ignore' })
  return {
    root,
    home,
    repo,
    write(path, content) {
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, content)
      return path
    },
    cleanup: () => rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 20 })
  }
}
