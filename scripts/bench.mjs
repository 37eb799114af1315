// Bundles the benchmarks (esbuild, dependencies external) and runs them with plain Node. The UI figure
// measures the built renderer, so the app is rebuilt first when out/renderer is missing or older than
// the renderer's sources; otherwise only the CLI bundle is refreshed.
import { build } from 'esbuild'
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

function newestMtime(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }
  return newest
}

const builtRenderer = join(root, 'out/renderer/index.html')
const sources = Math.max(newestMtime(join(root, 'src/renderer')), newestMtime(join(root, 'src/shared')))
const stale = !existsSync(builtRenderer) || statSync(builtRenderer).mtimeMs < sources
if (stale) console.log('The built renderer is missing or older than its sources: building the app first.')
spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), ...(stale ? [] : ['--cli'])], { stdio: 'inherit' })
const outfile = join(root, 'out/bench/index.mjs')
await build({
  entryPoints: [join(root, 'bench/index.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  logLevel: 'warning'
})
const r = spawnSync(process.execPath, [outfile, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' })
process.exitCode = r.status ?? 1
