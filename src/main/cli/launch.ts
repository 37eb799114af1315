// The `fanout` launcher (built to out/cli/launch.cjs and run by bin/fanout): loads the CLI bundle through
// its code cache, runs the command, then refreshes the cache when this run could not use a complete one.
import { join } from 'node:path'
import { cacheDirs, loadBundle } from './code-cache'

interface Cli {
  main(argv: string[]): Promise<number>
}

// Each command compiles a different part of the bundle, so each keeps its own cache; anything else
// (help, a mistyped command) shares one, so a typo never leaves a file behind.
const CACHED_COMMANDS = ['agents', 'run', 'web', 'worktrees']

export async function launch(outDir: string, argv: string[]): Promise<number> {
  const bundle = join(outDir, 'fanout.cjs')
  const command = argv[0] ?? ''
  const cli = loadBundle<Cli>(bundle, { name: CACHED_COMMANDS.includes(command) ? command : 'other', dirs: cacheDirs(bundle) })
  const code = await cli.exports.main(argv)
  cli.save(code === 0)
  return code
}
