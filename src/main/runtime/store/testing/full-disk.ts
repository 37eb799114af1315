// A real small disk for the tests of a disk that fills and frees: a tmpfs mounted on a temporary folder, and a
// filler that takes its last byte. Mounting needs root and a kernel that lets this process mount (CI and the dev
// machines run as root); where it cannot, the tests skip and say why (`CANNOT_MOUNT_REASON`).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

function mount(size: string, dir: string): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' })
}

function unmount(dir: string): void {
  execFileSync('umount', ['-l', dir], { stdio: 'pipe' })
}

/** Why no tmpfs can be mounted here, or null when one can (tried once, on a folder of its own). */
function whyNot(): string | null {
  if (process.platform !== 'linux') return 'tmpfs mounts are Linux only'
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root'
  const probe = mkdtempSync(join(tmpdir(), 'fanout-mount-probe-'))
  try {
    mount('64k', probe)
    unmount(probe)
    return null
  } catch (err) {
    return `mount refused: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`
  } finally {
    rmSync(probe, { recursive: true, force: true })
  }
}

const reason = whyNot()
export const CAN_MOUNT = reason === null
export const CANNOT_MOUNT_REASON = reason ?? ''

/** Mounts a tmpfs of `size` (e.g. '256k') on `at` or a new temporary folder; `unmount` removes it (call in finally). */
export function mountSmallDisk(size: string, at?: string): { dir: string; unmount: () => void } {
  const dir = at ?? mkdtempSync(join(tmpdir(), 'fanout-full-disk-'))
  mount(size, dir)
  return {
    dir,
    unmount: () => {
      unmount(dir)
      if (!at) rmSync(dir, { recursive: true, force: true })
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
