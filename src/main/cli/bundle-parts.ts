// Parts of the built CLI that live in files of their own beside its bundle (scripts/build.mjs): third-party
// code a run needs only for what it may never do — connect an MCP server (the MCP SDK, ajv, its own zod),
// serve `fanout web` (ws) — is read and compiled when first used, not at every start. The build points the
// bundle's imports of those packages at loadPart(); the sources (vitest, the Electron build) import them as usual.
import { readFileSync } from 'node:fs'
import Module, { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Node's CommonJS wrapper, which the CLI's built files start with (code-cache.ts says why). */
export const BUNDLE_WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {'

interface NodeModule {
  exports: unknown
  filename: string
  paths: string[]
  _compile(content: string, filename: string): void
}
const NodeModules = Module as unknown as { new (id: string): NodeModule; _nodeModulePaths(dir: string): string[] }

/**
 * A built file compiled by Node's own CommonJS loader, which alone maps stack traces through its source map
 * on Node 20. A built file is a function expression (Node's wrapper): called here with the module's own arguments.
 */
export function requireBundle(file: string): unknown {
  const text = readFileSync(file, 'utf8')
  if (!text.startsWith(BUNDLE_WRAPPER_START)) return createRequire(file)(file)
  const module = new NodeModules(file)
  module.filename = file
  module.paths = NodeModules._nodeModulePaths(dirname(file))
  module._compile(`${text}\n.call(this, exports, require, module, __filename, __dirname)`, file)
  return module.exports
}

/** Loads a part's file and returns its exports: the launcher's goes through the part's code cache. */
export type PartLoader = (file: string, name: string) => unknown

let loader: PartLoader = requireBundle
const loaded = new Map<string, unknown>()

/** Set by the launcher before the command runs. */
export function setPartLoader(load: PartLoader): void {
  loader = load
}

/** The exports of the part `name` (`<name>.cjs` beside the bundle), loaded at its first use. */
export function loadPart(name: string): unknown {
  if (!loaded.has(name)) loaded.set(name, loader(fileURLToPath(new URL(`${name}.cjs`, import.meta.url)), name))
  return loaded.get(name)
}
