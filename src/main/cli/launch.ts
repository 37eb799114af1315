// The `fanout` launcher (built to out/cli/launch.cjs and run by bin/fanout): loads the CLI bundle through
// its code cache, runs the command, then refreshes the cache when this run could not use a complete one.
import { readFileSync } from 'node:fs'
import Module, { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { BUNDLE_WRAPPER_START, cacheDirs, loadBundle, primeCaches, type LoadedBundle } from './code-cache'

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

interface NodeModule {
  exports: unknown
  filename: string
  paths: string[]
  _compile(content: string, filename: string): void
}
const NodeModules = Module as unknown as { new (id: string): NodeModule; _nodeModulePaths(dir: string): string[] }

/**
 * The bundle compiled by Node's own CommonJS loader, which alone maps stack traces through its source map on
 * Node 20. The built file is a function expression (Node's wrapper, code-cache.ts): called here with the
 * module's own arguments.
 */
function requireWithSourceMaps(bundle: string): Cli {
  const text = readFileSync(bundle, 'utf8')
  if (!text.startsWith(BUNDLE_WRAPPER_START)) return createRequire(bundle)(bundle) as Cli
  const module = new NodeModules(bundle)
  module.filename = bundle
  module.paths = NodeModules._nodeModulePaths(dirname(bundle))
  module._compile(`${text}\n.call(this, exports, require, module, __filename, __dirname)`, bundle)
  return module.exports as Cli
}

export async function launch(outDir: string, argv: string[]): Promise<number> {
  const bundle = join(outDir, 'fanout.cjs')
  const command = argv[0] ?? ''
  // Node 20 maps stack traces (--enable-source-maps) only for code its own loader compiled, so then the
  // bundle is required plainly, without a cache.
  const cli: LoadedBundle<Cli> = process.sourceMapsEnabled
    ? { exports: requireWithSourceMaps(bundle), cache: 'none', bundleCheck: 'hashed', save: () => undefined }
    : loadBundle<Cli>(bundle, { name: cacheName(command), dirs: cacheDirs(bundle) })
  const code = await cli.exports.main(argv)
  cli.save(code === 0)
  return code
}
