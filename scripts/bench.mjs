// Bundles the benchmarks (esbuild, dependencies external) and runs them with plain Node.
import { build } from 'esbuild'
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
spawnSync(process.execPath, [join(root, 'scripts/build.mjs'), '--cli'], { stdio: 'inherit' })
const outfile = join(root, 'out/bench/index.mjs')
await build({ entryPoints: [join(root, 'bench/index.ts')], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node22', packages: 'external', logLevel: 'warning' })
const r = spawnSync(process.execPath, [outfile, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' })
process.exitCode = r.status ?? 1
