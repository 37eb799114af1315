// A named pipe for tests of hostile trees (a command file that is a pipe must never be read: it would hang).
import { execFileSync } from 'node:child_process'

export function mkfifoSync(path: string): void {
  execFileSync('mkfifo', [path])
}
