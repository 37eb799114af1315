// Where Fanout's own files are: the built-in agents (agents/) and the docs the guide agent reads (docs/).
// The code runs from src/ under vitest, from out/cli/fanout.cjs as the CLI and from out/main/index.js in
// the app, so the repository root is found by walking up to the package.json named "fanout" rather than by
// a fixed relative path.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

let cachedRoot: string | undefined

function isFanoutPackage(dir: string): boolean {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name === 'fanout'
  } catch {
    return false
  }
}

/** The nearest folder at or above `start` holding Fanout's package.json, if any. */
export function findFanoutRoot(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && isFanoutPackage(dir)) return dir
    if (dirname(dir) === dir) return undefined
  }
}

function moduleDir(): string | undefined {
  try {
    return dirname(fileURLToPath(import.meta.url))
  } catch {
    return undefined
  }
}

/** Fanout's installation root. Throws a clear error when the code was copied away from its files. */
export function fanoutRoot(): string {
  if (cachedRoot) return cachedRoot
  const starts = [moduleDir(), process.argv[1] ? dirname(process.argv[1]) : undefined, process.cwd()]
  for (const start of starts) {
    const root = start ? findFanoutRoot(start) : undefined
    if (root) return (cachedRoot = root)
  }
  throw new Error(`cannot find Fanout's installation folder (a package.json named "fanout") above ${starts.filter(Boolean).join(' or ')}`)
}

export const defaultBuiltinDir = (): string => join(fanoutRoot(), 'agents')
export const defaultDocsDir = (): string => join(fanoutRoot(), 'docs')

/** Placeholders built-in prompts may use: `{{FANOUT_DOCS_DIR}}` is where the bundled docs are. */
export function builtinPlaceholders(docsDir: string = defaultDocsDir()): Record<string, string> {
  return { FANOUT_DOCS_DIR: docsDir }
}
