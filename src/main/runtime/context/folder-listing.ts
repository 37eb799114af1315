// A short listing of a folder's tree for an agent's prompt: what an Explore agent would first ask Glob or ls for.
// Read with a bounded walk (no process), names only: hidden entries and folders of build output or installed
// packages are left out, as a search of the tree would leave them out.
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'

const SKIPPED = new Set(['node_modules', 'dist', 'out', 'build', 'target', 'vendor', 'coverage', '__pycache__'])

/** Up to `maxEntries` paths under `root` (folders end with `/`), breadth first, each level sorted; [] when unreadable. */
export async function folderListing(root: string, maxEntries = 400, maxDepth = 4): Promise<string[]> {
  const out: string[] = []
  let level = ['']
  for (let depth = 0; depth < maxDepth && level.length && out.length < maxEntries; depth++) {
    const next: string[] = []
    for (const rel of level) {
      const entries = await readdir(join(root, rel), { withFileTypes: true }).catch(() => [])
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      for (const e of entries) {
        if (out.length >= maxEntries) break
        if (e.name.startsWith('.') || SKIPPED.has(e.name)) continue
        const path = rel ? `${rel}/${e.name}` : e.name
        if (e.isDirectory()) {
          out.push(`${path}/`)
          next.push(path)
        } else out.push(path)
      }
    }
    level = next
  }
  return out
}
