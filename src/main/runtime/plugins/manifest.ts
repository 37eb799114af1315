// A plugin's manifest, `.claude-plugin/plugin.json`, as Claude Code documents it: `name` (kebab-case) is the
// one required key; `commands`, `agents`, `skills` name more places beside the default folders; `hooks` and
// `mcpServers` are a file or the configuration itself. A plugin without a manifest is named after its folder,
// as Claude Code does. Problems come back as `file:line:col: message` sentences, never throws.
import { join } from 'node:path'
import { z } from 'zod'
import { lazy } from '../../../shared/lazy'
import { readConfigFile } from '../store/read-config'

export const MANIFEST_FILE = join('.claude-plugin', 'plugin.json')

const paths = lazy(() => z.union([z.string(), z.array(z.string())], { error: 'must be a path or a list of paths' }))
const pathOrConfig = lazy(() =>
  z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.union([z.string(), z.record(z.string(), z.unknown())]))], {
    error: 'must be a path, an object, or a list of them'
  })
)

// Built at first use: a run without plugins reads no manifest.
export const manifestSchema = lazy(() =>
  z
    .object({
      name: z
        .string({ error: 'must be a string' })
        .min(1, 'is empty')
        .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be kebab-case: letters, digits, "-", "_" and ".", no spaces'),
      version: z.string({ error: 'must be a string' }).optional(),
      description: z.string({ error: 'must be a string' }).optional(),
      author: z.union([z.string(), z.object({ name: z.string().optional(), email: z.string().optional(), url: z.string().optional() })]).optional(),
      homepage: z.string().optional(),
      repository: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
      license: z.string().optional(),
      keywords: z.array(z.string(), { error: 'must be a list of strings' }).optional(),
      commands: paths().optional(),
      agents: paths().optional(),
      skills: paths().optional(),
      hooks: pathOrConfig().optional(),
      mcpServers: pathOrConfig().optional()
    })
    .loose()
)

export type PluginManifest = z.infer<ReturnType<typeof manifestSchema>>

/** Line and column (1-based) of a character offset. */
function at(text: string, offset: number): string {
  const before = text.slice(0, Math.max(0, offset))
  const line = before.split('\n').length
  return `${line}:${offset - before.lastIndexOf('\n')}`
}

/** Where a key is written (its first `"key"` followed by a colon), else the top of the file. */
function keyAt(text: string, key: string | number | symbol | undefined): string {
  if (typeof key !== 'string') return '1:1'
  const m = new RegExp(`"${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\s*:`).exec(text)
  return m ? at(text, m.index) : '1:1'
}

export type ManifestRead = { manifest: PluginManifest; file: string } | { missing: true } | { error: string }

/** Reads and checks `<root>/.claude-plugin/plugin.json`. */
export function readManifest(root: string): ManifestRead {
  const file = join(root, MANIFEST_FILE)
  const read = readConfigFile(file)
  if ('missing' in read) return { missing: true }
  if ('error' in read) return { error: `${file}:1:1: ${read.error}` }
  let json: unknown
  try {
    json = JSON.parse(read.text)
  } catch (err) {
    const pos = /position (\d+)/.exec(String(err))
    return { error: `${file}:${pos ? at(read.text, Number(pos[1])) : '1:1'}: not valid JSON (${(err as Error).message})` }
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return { error: `${file}:1:1: the manifest must be a JSON object like {"name": "my-plugin"}` }
  const parsed = manifestSchema().safeParse(json)
  if (parsed.success) return { manifest: parsed.data, file }
  const issue = parsed.error.issues[0]
  const path = issue.path.length ? issue.path.join('.') : 'the manifest'
  const missingName = issue.path[0] === 'name' && !('name' in (json as object))
  return {
    error: `${file}:${keyAt(read.text, issue.path[0])}: ${missingName ? '"name" is required (the plugin\'s kebab-case name)' : `"${path}" ${issue.message}`}`
  }
}
