// The recipe in DESIGN.md ("Adding a tool": one file, one line in registry.ts) holds: a tool file that is not
// registered, or a registry whose metadata is not the tool's own, fails here.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { BuiltinTool } from './builtin-tool'
import { BUILTIN_TOOL_META, BUILTIN_TOOLS, createBuiltinTools } from './registry'

const here = __dirname
const sources = readdirSync(here).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))

function isBuiltinTool(v: unknown): v is BuiltinTool {
  return typeof v === 'object' && v !== null && typeof (v as BuiltinTool).create === 'function' && typeof (v as BuiltinTool).meta?.name === 'string'
}

describe('the tool registry', () => {
  it('lists every tool a file in tools/ defines, each file exporting its own BuiltinTool', async () => {
    const exported: BuiltinTool[] = []
    const defining: string[] = []
    for (const file of sources) {
      if (file === 'registry.ts' || file === 'index.ts') continue
      const text = readFileSync(join(here, file), 'utf8')
      const mod = (await import(/* @vite-ignore */ join(here, file))) as Record<string, unknown>
      const tools = Object.values(mod).filter(isBuiltinTool)
      exported.push(...tools)
      // A file that declares a tool must hand the registry its BuiltinTool (the helpers themselves excepted).
      if (/\b(builtinTool|fileTool|defineTool)\(/.test(text) && !/export function (builtinTool|fileTool|defineTool)\b/.test(text)) {
        defining.push(file)
        expect(tools, `${file} defines a tool but exports no BuiltinTool`).toHaveLength(1)
      }
    }
    expect(defining.length).toBeGreaterThanOrEqual(9)
    expect(new Set(BUILTIN_TOOLS)).toEqual(new Set(exported))
    expect(BUILTIN_TOOLS).toHaveLength(exported.length)
  })

  it('takes each tool’s metadata from its file, and builds the tool with exactly that', () => {
    const built = createBuiltinTools({ cwd: here })
    expect(built.map((t) => t.name)).toEqual(BUILTIN_TOOLS.map((t) => t.meta.name))
    for (const [i, entry] of BUILTIN_TOOLS.entries()) {
      expect(BUILTIN_TOOL_META[entry.meta.name]).toBe(entry.meta)
      expect({ name: built[i].name, readOnly: built[i].readOnly, concurrencySafe: built[i].concurrencySafe, permission: built[i].permission }).toEqual(
        entry.meta
      )
    }
    expect(Object.keys(BUILTIN_TOOL_META)).toHaveLength(BUILTIN_TOOLS.length)
  })

  it('builds only the tools an agent is given, in the registry’s order and as the full set builds them', () => {
    const spec = (t: { name: string; description: string; inputJsonSchema: unknown }) => JSON.stringify([t.name, t.description, t.inputJsonSchema])
    const all = createBuiltinTools({ cwd: here })
    const some = createBuiltinTools({ cwd: here }, new Set(['Read', 'Glob', 'NoSuchTool', 'Edit']))
    expect(some.map((t) => t.name)).toEqual(['Glob', 'Read', 'Edit'])
    expect(some.map(spec)).toEqual(all.filter((t) => ['Glob', 'Read', 'Edit'].includes(t.name)).map(spec))
    expect(createBuiltinTools({ cwd: here }, new Set())).toEqual([])
  })

  it('describes every tool the same way whatever folder the agent works in, so agents in worktrees share the tools’ cache', () => {
    // Tools come first in a request: when their text names the agent's folder, siblings in their own worktrees
    // and their parent have no prefix in common and each pays its whole prompt again. The folder is in <env>.
    const describe = (cwd: string) => createBuiltinTools({ cwd }).map((t) => JSON.stringify([t.name, t.description, t.inputJsonSchema]))
    const main = describe('/home/ada/project')
    expect(describe('/home/ada/project/.claude/worktrees/agent-a1b2c3')).toEqual(main)
    expect(main.join('\n')).not.toContain('/home/ada')
  })
})
