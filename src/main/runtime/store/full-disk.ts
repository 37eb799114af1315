// A real small disk for the tests of a disk that fills and frees (used by *.test.ts only): a tmpfs mounted on
// a temporary folder (root only: the tests skip with this reason otherwise), and a filler that takes its last byte.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const CAN_MOUNT = process.getuid?.() === 0
export const CANNOT_MOUNT_REASON = 'mounting a tmpfs needs root (CI and the dev machines run as root)'

/** Mounts a tmpfs of `size` (e.g. '256k') on a new temporary folder; `unmount` removes it (call in finally). */
export function mountSmallDisk(size: string): { dir: string; unmount: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'fanout-full-disk-'))
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir])
  return {
    dir,
    unmount: () => {
      execFileSync('umount', ['-l', dir])
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** Fills the file system at `dir` with one file until not a byte more fits; returns that file (remove it to free the disk). */
export function fillDisk(dir: string): string {
  const file = join(dir, 'filler')
  writeFileSync(file, '')
  for (let n = 64 * 1024; n >= 1; n = Math.floor(n / 2))
    for (;;)
      try {
        writeFileSync(file, Buffer.alloc(n, 120), { flag: 'a' })
      } catch {
        break
      }
  return file
}
