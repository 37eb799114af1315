import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve, dirname } from 'node:path'
import { describe, expect, it } from 'vitest'

// The architecture's one-way dependencies, checked on every import specifier in src/.
const root = resolve(__dirname, '..')

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return walk(p)
    return /\.(ts|tsx)$/.test(name) ? [p] : []
  })
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specs: string[] = []
  const re = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g
  for (const m of text.matchAll(re)) specs.push(m[1] ?? m[2] ?? m[3])
  return specs
}

function layerOf(file: string): string {
  const rel = relative(join(root, 'src'), file).replaceAll('\\', '/')
  if (rel.startsWith('shared/')) return 'shared'
  if (rel.startsWith('renderer/')) return 'renderer'
  if (rel.startsWith('preload/')) return 'preload'
  if (rel.startsWith('main/runtime/')) return 'runtime'
  return 'main'
}

const files = walk(join(root, 'src')).filter((f) => !/\.test\.tsx?$/.test(f))

const runtime = join(root, 'src/main/runtime')

/** The runtime file a relative specifier names (`./x` → x.ts, x.tsx or x/index.ts), or null outside the runtime. */
function runtimeTarget(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null
  const p = resolve(dirname(from), spec)
  const found = [`${p}.ts`, `${p}.tsx`, join(p, 'index.ts'), p].find((c) => existsSync(c) && statSync(c).isFile())
  return found && found.startsWith(runtime + '/') ? found : null
}

/** The runtime's top: the folders that assemble a session, and who may import them. */
const TOP: Record<string, readonly string[]> = {
  orchestration: ['orchestration', 'host', 'agent-editor', 'setup.ts'],
  host: ['host']
}

/** Runtime import cycles (type-only imports too: they tie two files together all the same), each as a path. */
function runtimeCycles(list: readonly string[]): string[][] {
  const inRuntime = list.filter((f) => f.startsWith(runtime + '/'))
  const edges = new Map(
    inRuntime.map((f) => [
      f,
      importsOf(f)
        .map((s) => runtimeTarget(f, s))
        .filter((t): t is string => t !== null)
    ])
  )
  const cycles: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (f: string): void => {
    state.set(f, 'open')
    stack.push(f)
    for (const t of edges.get(f) ?? []) {
      if (state.get(t) === 'open') cycles.push([...stack.slice(stack.indexOf(t)), t].map((x) => relative(runtime, x)))
      else if (!state.has(t)) visit(t)
    }
    stack.pop()
    state.set(f, 'done')
  }
  for (const f of inRuntime) if (!state.has(f)) visit(f)
  return cycles
}

/** Imports from a lower runtime folder into the runtime's top (e.g. store → orchestration). */
function backEdges(list: readonly string[]): string[] {
  const folder = (f: string): string => relative(runtime, f).split('/')[0]
  const out: string[] = []
  for (const file of list.filter((f) => f.startsWith(runtime + '/'))) {
    for (const spec of importsOf(file)) {
      const target = runtimeTarget(file, spec)
      const allowed = target ? TOP[folder(target)] : undefined
      if (allowed && !allowed.includes(folder(file))) out.push(`${relative(root, file)} imports '${spec}': ${folder(file)} sits below ${folder(target!)}`)
    }
  }
  return out
}

function violations(check: (layer: string, spec: string, target: string | null) => string | null): string[] {
  const out: string[] = []
  for (const file of files) {
    const layer = layerOf(file)
    for (const spec of importsOf(file)) {
      const target = spec.startsWith('.') ? layerOf(resolve(dirname(file), spec)) : null
      const why = check(layer, spec, target)
      if (why) out.push(`${relative(root, file)} imports '${spec}': ${why}`)
    }
  }
  return out
}

describe('layering', () => {
  it('finds source files to check', () => {
    expect(files.length).toBeGreaterThan(5)
  })

  it('only the Electron adapter (src/main/index.ts, src/main/ipc, src/preload) imports electron', () => {
    const bad = files
      .filter((f) => importsOf(f).some((s) => s === 'electron' || s.startsWith('electron/')))
      .map((f) => relative(root, f).replaceAll('\\', '/'))
      .filter((f) => !(f === 'src/main/index.ts' || f.startsWith('src/main/ipc/') || f.startsWith('src/preload/')))
      .map((f) => `${f} imports electron outside the Electron adapter`)
    expect(bad).toEqual([])
  })

  it('src/shared is pure: no Node built-ins and no other layer', () => {
    const bad = violations((layer, spec, target) => {
      if (layer !== 'shared') return null
      if (spec.startsWith('node:') || ['fs', 'path', 'os', 'child_process'].includes(spec)) return 'Node built-in in shared code'
      if (target && target !== 'shared') return `shared code importing ${target}`
      return null
    })
    expect(bad).toEqual([])
  })

  it('src/renderer imports only src/shared (and npm packages), never main or preload', () => {
    const bad = violations((layer, spec, target) => {
      if (layer !== 'renderer') return null
      if (spec.startsWith('node:')) return 'Node built-in in the renderer'
      if (target && target !== 'renderer' && target !== 'shared') return `renderer importing ${target}`
      return null
    })
    expect(bad).toEqual([])
  })

  it('the runtime never imports adapters (ipc, cli, web, renderer)', () => {
    const bad = violations((layer, _spec, target) => {
      if (layer !== 'runtime' || !target) return null
      return target === 'runtime' || target === 'shared' ? null : `runtime importing ${target}`
    })
    expect(bad).toEqual([])
  })

  it("nothing below the runtime's top (orchestration, host) imports it: no back edge such as store → orchestration", () => {
    expect(backEdges(files)).toEqual([])
  })

  it('only security/spawn.ts starts programs (node:child_process) and only worktrees/git.ts runs git', () => {
    // Test fixtures (testing/ folders, the search fixture) make repositories with plain execFileSync: they run in
    // tests only, never with a person's credentials at stake.
    const fixture = (f: string) => f.includes('/testing/') || f.endsWith('/tools/search-fixture.ts')
    const bad = files
      .filter((f) => !fixture(f))
      .flatMap((f) => {
        const rel = relative(root, f).replaceAll('\\', '/')
        return importsOf(f).flatMap((s) => {
          if ((s === 'node:child_process' || s === 'child_process') && rel !== 'src/main/runtime/security/spawn.ts')
            return [`${rel} imports ${s}: start programs through security/spawn.ts (spawnChild, runChild), which strips credentials`]
          if (s === 'simple-git' || s.startsWith('simple-git/'))
            return [`${rel} imports ${s}: run git through worktrees/git.ts (runGit), which neutralises the repository's config`]
          return []
        })
      })
    expect(bad).toEqual([])
    // git itself is started only by the runner: a literal 'git' handed to the spawn helper elsewhere is a second way.
    const direct = files
      .filter((f) => !fixture(f) && !f.endsWith('/worktrees/git.ts'))
      .filter((f) => /\b(spawnChild|runChild)\(\s*['"]git['"]/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f))
    expect(direct).toEqual([])
  })

  it("one owner of an agent's worktree: only worktrees/agent-worktree-lifecycle.ts reaches the steps that make and remove one", () => {
    const worktrees = join(runtime, 'worktrees')
    const steps = ['create-worktree', 'finish-worktree', 'half-made', 'orphans'].map((n) => join(worktrees, `${n}.ts`))
    // The steps call each other (making one rebuilds a half-made one; an orphan's commit is worded as a finish's).
    // commitAll only asks half-made.ts whether a worktree is one (it never commits from one).
    const mayImport = new Set([join(worktrees, 'agent-worktree-lifecycle.ts'), ...steps])
    const asks = (f: string, t: string) => f === join(worktrees, 'agent-branch.ts') && t === join(worktrees, 'half-made.ts')
    const imports = files.flatMap((f) =>
      importsOf(f)
        .filter((s) => steps.includes(runtimeTarget(f, s) ?? '') && !mayImport.has(f) && !asks(f, runtimeTarget(f, s) ?? ''))
        .map((s) => `${relative(root, f)} imports '${s}': make, finish, land or clean up a worktree through worktrees/agent-worktree-lifecycle.ts`)
    )
    expect(imports).toEqual([])
    // Nor does anyone else add, remove or prune a worktree, or delete a branch, with git directly.
    const direct = files
      .filter((f) => !f.startsWith(worktrees + '/') && !f.includes('/testing/'))
      .filter((f) => /['"]worktree['"],\s*['"](add|remove|prune|move|unlock)['"]|['"]update-ref['"],\s*['"]-d['"]/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f))
    expect(direct).toEqual([])
  })

  it('src/main/runtime has no import cycle', () => {
    expect(runtimeCycles(files).map((c) => c.join(' → '))).toEqual([])
  })
})
