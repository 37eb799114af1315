// A source module (and what it imports of the project) bundled into one CommonJS file in `dir`, for a test
// to require in a fresh `node` process: flags and code caches are per process, so such tests start their own.
import { basename, join } from 'node:path'
import { buildSync } from 'esbuild'

export function childModule(source: string, dir: string): string {
  const outfile = join(dir, `${basename(source, '.ts')}.cjs`)
  buildSync({ entryPoints: [source], outfile, bundle: true, platform: 'node', format: 'cjs', logLevel: 'silent' })
  return outfile
}
