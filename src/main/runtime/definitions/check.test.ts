import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDirs } from '../tools/test-kit'
import { checkAgentPaths, checkFailed } from './check'

let tmp: string
useTempDirs('each', ['fanout-check-'], (d) => (tmp = d))

describe('checkAgentPaths', () => {
  it('checks files and folders, counting what failed', async () => {
    mkdirSync(join(tmp, 'dir/sub'), { recursive: true })
    writeFileSync(join(tmp, 'dir/sub/ok.md'), '---\nname: ok\ndescription: d\n---\n')
    writeFileSync(join(tmp, 'dir/bad.md'), 'no frontmatter')
    writeFileSync(join(tmp, 'single.md'), '---\nname: s\ndescription: d\ncategory: x\n---\n')
    writeFileSync(join(tmp, 'notes.txt'), 'not an agent')
    const r = await checkAgentPaths(['dir', 'single.md', 'single.md', 'missing.md', 'notes.txt'], tmp)
    expect(r.checked).toBe(3)
    expect(r.loaded).toBe(2)
    expect(r.failed.sort()).toEqual([join(tmp, 'dir/bad.md'), join(tmp, 'missing.md'), join(tmp, 'notes.txt')].sort())
    expect(r.diagnostics.map((d) => d.code).sort()).toEqual(['no-frontmatter', 'not-found', 'not-markdown', 'unknown-key'])
    expect(checkFailed(r)).toBe(true)
  })

  it('passes clean files', async () => {
    writeFileSync(join(tmp, 'ok.md'), '---\nname: ok\ndescription: d\n---\n')
    expect(checkFailed(await checkAgentPaths([tmp], tmp))).toBe(false)
  })
})
