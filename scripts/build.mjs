// Builds everything a checkout needs: the CLI bundle (esbuild, ~100 ms) and the Electron targets
// (electron-vite: main, preload, renderer; the renderer also serves browser mode).
// `node scripts/build.mjs --cli` builds only the CLI (used by bin/fanout on first run).
import { build } from 'esbuild'
import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

export async function buildCli() {
  await build({
    entryPoints: { fanout: join(root, 'src/main/cli/index.ts') },
    outdir: join(root, 'out/cli'),
    outExtension: { '.js': '.mjs' },
    // Each command (and the MCP client) is its own chunk, loaded when used: `fanout run` does not
    // parse the agent editor, browser mode or the MCP SDK on its way to the first request.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Dependencies are bundled in: loading one file is several times faster than resolving and reading
    // hundreds of ESM files from node_modules, and process start to first request is a product figure.
    external: ['electron', 'bufferutil', 'utf-8-validate'],
    banner: { js: "import { createRequire as __fanoutRequire } from 'node:module'; const require = __fanoutRequire(import.meta.url);" },
    // Minified, the bundle parses ~30% faster at start; names are kept for error messages and stacks.
    minify: true,
    keepNames: true,
    sourcemap: 'linked',
    logLevel: 'warning'
  })
}

export function buildApp() {
  const bin = join(root, 'node_modules/.bin/electron-vite')
  const r = spawnSync(bin, ['build'], { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) throw new Error('electron-vite build failed')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cliOnly = process.argv.includes('--cli')
  await buildCli()
  if (!cliOnly) buildApp()
}
