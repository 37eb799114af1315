// Started by every Fanout front end (the app, browser mode, each CLI command) before anything else runs:
// the Bash sandbox's journal of placeholders goes in the data folder, and what a crashed Fanout process left
// in projects is removed now (see mount-points.ts and mount-sweep.ts).
import { join } from 'node:path'
import { mountPoints } from './mount-points'

export const journalDirOf = (dataDir: string): string => join(dataDir, 'sandbox-mounts')

export function startSandboxHousekeeping(dataDir: string, warn: (message: string) => void = (m) => console.error(m)): void {
  let warned = false
  mountPoints.configure(journalDirOf(dataDir), (err) => {
    if (warned) return
    warned = true
    warn(
      `Fanout could not record the Bash sandbox's placeholders in ${journalDirOf(dataDir)} (${err.message}); if Fanout is killed while a command runs, empty files such as .bashrc or .mcp.json may stay in the project.`
    )
  })
}
