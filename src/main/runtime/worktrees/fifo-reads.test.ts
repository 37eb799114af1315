// Files Fanout reads from a repository's git folder (a worktree's HEAD, its metadata) are the repository's: a
// named pipe planted there is refused at once, never waited on.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { readLanded } from '../review/landed-log'
import { headSymref } from './agent-branch'
import { readMetadataIn } from './metadata'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function adminDirWithPipes(...names: string[]): string {
  const d = mkdtempSync(join(tmpdir(), 'fanout-fifo-admin-'))
  dirs.push(d)
  for (const n of names) {
    mkdirSync(join(d, n, '..'), { recursive: true })
    execFileSync('mkfifo', [join(d, n)])
  }
  return d
}

describe('reads of a git folder', () => {
  it('a HEAD that is a pipe names no branch', async () => {
    const d = adminDirWithPipes('HEAD')
    expect(await headSymref({ gitDir: d, commonDir: d, workTree: d })).toBeNull()
  })

  it('metadata that is a pipe is no metadata', async () => {
    const d = adminDirWithPipes('fanout.json')
    expect(await readMetadataIn(d)).toBeNull()
  })

  it('a landed log that is a pipe is an empty log', async () => {
    const d = adminDirWithPipes('fanout/landed.jsonl')
    expect((await readLanded(d)).size).toBe(0)
  })
})
