// The `fanout` launcher (built to out/cli/launch.cjs and run by bin/fanout): loads the CLI bundle through
// its code cache, runs the command, then refreshes the cache when this run could not use a complete one.
import { join } from 'node:path'
import { requireBundle, type PartLoader } from './bundle-parts'
import { cacheDirs, loadBundle, primeCaches, type LoadedBundle } from './code-cache'
import { feedbackAsAtStart } from './feedback-tiering'

interface Cli {
  main(argv: string[]): Promise<number>
  setPartLoader?(load: PartLoader): void
}

/** The bundle's parts (bundle-parts.ts, loaded only when used), each with a code cache of its own per command. */
const PARTS = ['fanout-deps']

// Each command compiles a different part of the bundle, so each keeps its own cache; anything else
// (help, a mistyped command) shares one, so a typo never leaves a file behind.
const CACHED_COMMANDS = ['agents', 'run', 'web', 'worktrees', 'trust']

const cacheName = (command: string): string => (CACHED_COMMANDS.includes(command) ? command : 'other')

/** Called by the build: every command's first run starts from a cache of the compiled bundle. */
export function primeLaunchCaches(outDir: string): void {
  const names = [...CACHED_COMMANDS, cacheName('')]
  const bundle = join(outDir, 'fanout.cjs')
  primeCaches(bundle, { names, dirs: cacheDirs(bundle) })
  for (const part of PARTS) {
    const file = join(outDir, `${part}.cjs`)
    primeCaches(file, { names: names.map((name) => `${name}.${part}`), dirs: cacheDirs(file) })
  }
}

export async function launch(outDir: string, argv: string[]): Promise<number> {
  const bundle = join(outDir, 'fanout.cjs')
  const command = argv[0] ?? ''
  // Node 20 maps stack traces (--enable-source-maps) only for code its own loader compiled, so then the
  // bundle is required plainly, without a cache.
  const load = <T>(file: string, name: string): LoadedBundle<T> =>
    process.sourceMapsEnabled
      ? { exports: requireBundle(file) as T, cache: 'none', bundleCheck: 'hashed', save: () => undefined }
      : loadBundle<T>(file, { name, dirs: cacheDirs(file) })
  const cli = load<Cli>(bundle, cacheName(command))
  // A part the command loads is saved with the bundle, as this run compiled it.
  const parts: LoadedBundle<unknown>[] = []
  cli.exports.setPartLoader?.((file, part) => {
    const loaded = load<unknown>(file, `${cacheName(command)}.${part}`)
    parts.push(loaded)
    return loaded.exports
  })
  const code = await cli.exports.main(argv)
  // The caches are made under V8's flags as the process started, or the next start would refuse them.
  feedbackAsAtStart()
  cli.save(code === 0)
  for (const part of parts) part.save(code === 0)
  return code
}
