// The `fanout` launcher (built to out/cli/launch.cjs and run by bin/fanout): loads the CLI bundle through
// its code cache, runs the command, then refreshes the cache when this run could not use a complete one.
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { cacheDirs, loadBundle, primeCaches, type LoadedBundle } from './code-cache'

interface Cli {
  main(argv: string[]): Promise<number>
}

// Each command compiles a different part of the bundle, so each keeps its own cache; anything else
// (help, a mistyped command) shares one, so a typo never leaves a file behind.
const CACHED_COMMANDS = ['agents', 'run', 'web', 'worktrees', 'trust']

const cacheName = (command: string): string => (CACHED_COMMANDS.includes(command) ? command : 'other')

/** Called by the build: every command's first run starts from a cache of the compiled bundle. */
export function primeLaunchCaches(outDir: string): void {
  const bundle = join(outDir, 'fanout.cjs')
  primeCaches(bundle, { names: [...CACHED_COMMANDS, cacheName('')], dirs: cacheDirs(bundle) })
}

export async function launch(outDir: string, argv: string[]): Promise<number> {
  const bundle = join(outDir, 'fanout.cjs')
  const command = argv[0] ?? ''
  // Node 20 maps stack traces (--enable-source-maps) only for code its own loader compiled, so then the
  // bundle is required plainly, without a cache.
  const cli: LoadedBundle<Cli> = process.sourceMapsEnabled
    ? { exports: createRequire(bundle)(bundle) as Cli, cache: 'none', bundleCheck: 'hashed', save: () => undefined }
    : loadBundle<Cli>(bundle, { name: cacheName(command), dirs: cacheDirs(bundle) })
  const code = await cli.exports.main(argv)
  cli.save(code === 0)
  return code
}
