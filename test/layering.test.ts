import { readdirSync, readFileSync, statSync } from 'node:fs'
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
    const bad = (
      files
        .filter((f) => importsOf(f).some((s) => s === 'electron' || s.startsWith('electron/')))
        .map((f) => relative(root, f).replaceAll('\\', '/'))
        .filter((f) => !(f === 'src/main/index.ts' || f.startsWith('src/main/ipc/') || f.startsWith('src/preload/')))
        .map((f) => `${f} imports electron outside the Electron adapter`)
    )
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
})
