// Scratch files of this process (background command output, each agent's sandboxed $TMPDIR, git's
// excludes for a sandboxed command) live under one folder made for this process alone: mkdtemp gives it an
// unguessable name and mode 0700. A fixed name such as /tmp/fanout-bash would be shared by every run and
// every user of the machine: another user could make it first and plant links in it (our output appended
// to their choice of file, or read by them), and two runs would append to the same files.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

let root: string | null = null

function processRoot(): string {
  if (root) return root
  const made = mkdtempSync(join(tmpdir(), 'fanout-'))
  root = made
  // Background commands die with the process (process-group.ts), so what they wrote goes with it.
  process.once('exit', () => rmSync(made, { recursive: true, force: true }))
  return made
}

/** `name` under this process's private scratch folder, made (0700) if missing. */
export function privateTempDir(...name: string[]): string {
  const dir = join(processRoot(), ...name)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  return dir
}
