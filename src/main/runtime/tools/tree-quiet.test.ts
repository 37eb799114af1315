// What tells a listing still holds: the times a walk's folders and ignore files carry, and what they were at the first look.
import { mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { folderId, pathsToWatch, quietSince } from './tree-quiet'

const root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-tree-quiet-')))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('quietSince', () => {
  it('a change stamped with a time from before the walk (a clock set back) is still a change', () => {
    writeFileSync(join(root, 'a.ts'), '')
    const id = folderId(root)!
    const watch = pathsToWatch(root, { dirs: [root], read: new Set() })!
    // A walk whose start the clock now puts a minute ahead: everything on disk reads as older than it.
    const walkedAt = Date.now() + 60_000
    expect(quietSince(root, id, watch, walkedAt)).toBe(true)
    expect(quietSince(root, id, watch, walkedAt)).toBe(true)
    writeFileSync(join(root, 'b.ts'), '')
    expect(quietSince(root, id, watch, walkedAt)).toBe(false)
  })

  it('a tree changed after the walk began is not quiet, nor one whose root is another folder', () => {
    const id = folderId(root)!
    const watch = pathsToWatch(root, { dirs: [root], read: new Set() })!
    expect(quietSince(root, id, watch, Date.now())).toBe(false)
    expect(quietSince(root, 'another:folder', watch, Date.now() + 60_000)).toBe(false)
    expect(pathsToWatch(join(root, 'missing'), { dirs: [], read: new Set() })).toBeNull()
  })

  it('an ignore file that is a link: turned to another file, even an old one, is a change', () => {
    const dir = realpathSync(mkdtempSync(join(root, 'linked-')))
    const past = new Date(2020, 0, 1)
    writeFileSync(join(root, 'rules-a'), '*.log\n')
    writeFileSync(join(root, 'rules-b'), '*.ts\n')
    utimesSync(join(root, 'rules-b'), past, past)
    symlinkSync(join(root, 'rules-a'), join(dir, '.ignore'))
    const file = join(dir, '.ignore')
    const watch = pathsToWatch(dir, { dirs: [], read: new Set([file]) })!
    const walkedAt = Date.now() + 60_000
    expect(quietSince(dir, folderId(dir)!, watch, walkedAt)).toBe(true)
    // Turned as tools turn links: a new link renamed over the old one. Its target's times are old.
    symlinkSync(join(root, 'rules-b'), join(dir, '.ignore.new'))
    renameSync(join(dir, '.ignore.new'), file)
    expect(quietSince(dir, folderId(dir)!, watch, walkedAt)).toBe(false)
    // Before any look, a link made just now is not old, wherever it leads.
    const fresh = pathsToWatch(dir, { dirs: [], read: new Set([file]) })!
    expect(quietSince(dir, folderId(dir)!, fresh, Date.now())).toBe(false)
  })
})
