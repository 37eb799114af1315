// What a crashed process's journal names is removed when it is still exactly the placeholder that was made,
// and nothing else: not a file with content, not one changed since, not one a live process stands on.
import { spawnSync } from 'node:child_process'
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { processStart, type JournalLine, type MountKind } from './mount-journal'
import { sweepJournals } from './mount-sweep'
import { identityOf, lstatOrNull } from './placeholder-identity'
import { tempFolders } from '../../../../../test/support/temp-folders'

const tempFolder = tempFolders('fanout-sweep-')
let root: string
let dir: string
let project: string
beforeEach(() => {
  root = realpathSync(tempFolder())
  dir = join(root, 'journal')
  project = join(root, 'project')
  mkdirSync(dir)
  mkdirSync(project)
})

/** A pid that was running a moment ago and is not now. */
const deadPid = (): number => spawnSync('true').pid as number

function placeholder(name: string, kind: MountKind = 'file'): { path: string; made: Extract<JournalLine, { id: unknown }> } {
  const path = join(project, name)
  if (kind === 'dir') mkdirSync(path, 0o755)
  else closeSync(openSync(path, 'wx', 0o444))
  const st = lstatOrNull(path)
  if (!st) throw new Error('not made')
  return { path, made: { t: 'made', path, kind, id: identityOf(st) } }
}

function journalOf(pid: number, start: string, lines: JournalLine[]): string {
  const file = join(dir, `${pid}.jsonl`)
  writeFileSync(file, [{ t: 'head', v: 1, pid, start, host: 'h' }, ...lines].map((l) => JSON.stringify(l)).join('\n') + '\n')
  return file
}

const sweep = () => sweepJournals(dir, { isOwn: () => false, ownPaths: new Set(), isPlaceholder: () => false })

describe('sweeping what a crashed Fanout process left', () => {
  it('removes untouched placeholders and keeps every one that was written to, touched or filled', () => {
    const untouched = placeholder('.bashrc')
    const filled = placeholder('.mcp.json')
    chmodSync(filled.path, 0o644)
    writeFileSync(filled.path, '{"mcpServers":{}}')
    const touched = placeholder('.gitmodules')
    utimesSync(touched.path, new Date(Date.now() + 5000), new Date(Date.now() + 5000))
    const chmodded = placeholder('.idea')
    chmodSync(chmodded.path, 0o644)
    const replaced = placeholder('.zshrc')
    rmSync(replaced.path)
    writeFileSync(replaced.path, '') // a person's own empty file in its place (their mode, their time)
    const emptyDir = placeholder('.claude', 'dir')
    const usedDir = placeholder('sub', 'dir')
    writeFileSync(join(usedDir.path, 'mine.txt'), 'x')
    // Made by bubblewrap while the process could not: known by its intent, judged by shape and time.
    const byBwrap = join(project, '.profile')
    closeSync(openSync(byBwrap, 'wx', 0o444))
    const oldOne = join(project, '.ripgreprc')
    closeSync(openSync(oldOne, 'wx', 0o444))
    const lines: JournalLine[] = [
      ...[untouched, filled, touched, chmodded, replaced, emptyDir, usedDir].map((p) => p.made),
      { t: 'intent', path: byBwrap, kind: 'file', at: Date.now() },
      { t: 'intent', path: oldOne, kind: 'file', at: Date.now() - 600_000 },
      { t: 'source', path: join(root, 'claude-empty-x') }
    ]
    mkdirSync(join(root, 'claude-empty-x'))
    const file = journalOf(deadPid(), '1', lines)
    const result = sweep()
    expect(result.removed.sort()).toEqual([untouched.path, emptyDir.path, byBwrap].sort())
    expect(readdirSync(project).sort()).toEqual(['.gitmodules', '.idea', '.mcp.json', '.ripgreprc', '.zshrc', 'sub'])
    expect(existsSync(join(root, 'claude-empty-x'))).toBe(false)
    expect(existsSync(file)).toBe(false)
  })

  it("leaves what a live process stands on, and what a crashed process's still-running sandbox stands on", () => {
    const held = placeholder('.bashrc')
    const orphaned = placeholder('.vscode')
    // A live process (this test's parent) that uses the first one.
    journalOf(process.ppid, processStart(process.ppid) ?? '0', [{ t: 'use', path: held.path, kind: 'file', id: held.made.id }])
    const dead = journalOf(deadPid(), '1', [held.made])
    // A dead process whose sandboxed command (this very process, standing in for it) still runs.
    const orphan = journalOf(deadPid(), '1', [orphaned.made, { t: 'run', pid: process.pid, start: processStart(process.pid) }])
    expect(sweep().removed).toEqual([])
    expect(readdirSync(project).sort()).toEqual(['.bashrc', '.vscode'])
    expect(existsSync(dead)).toBe(true) // kept: what it names is still in use; the next sweep tries again
    expect(existsSync(orphan)).toBe(true)
  })

  it('takes away placeholders two live processes each left for the other', () => {
    const left = placeholder('.bashrc')
    journalOf(process.ppid, processStart(process.ppid) ?? '0', [left.made, { t: 'free', path: left.path }])
    expect(sweep().removed).toEqual([left.path])
  })

  it('ignores a torn last line and files that are no journals', () => {
    const p = placeholder('.bashrc')
    const file = journalOf(deadPid(), '1', [p.made])
    writeFileSync(file, readFileSync(file) + '{"t":"gone","pa')
    writeFileSync(join(dir, 'notes.txt'), 'x')
    writeFileSync(join(dir, '123.jsonl'), 'garbage\n')
    expect(sweep().removed).toEqual([p.path])
  })
})
