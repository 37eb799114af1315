// A small real repository for the Glob/Grep tests: ignore files at two levels, hidden files, a binary,
// CRLF text, an ignored dependency folder, and distinct mtimes so "newest first" is deterministic.
import { execFileSync } from 'node:child_process'
import { afterAll, beforeAll } from 'vitest'
import { makeTempDir, writeTree } from './test-kit'

export function writeSearchFixture(root: string): void {
  const files: Record<string, string | Buffer> = {
    '.gitignore': 'node_modules/\n*.log\nbuild/\n',
    'README.md': '# Demo\nhello from the readme\nTODO: write docs\n',
    'notes.txt': 'hello\nHELLO\nHello there\n',
    'src/app.ts': 'import { util } from "./util"\n\nfunction main() {\n  return util()\n}\n// TODO: handle errors\nexport { main }\n',
    'src/util.ts': 'export function util() {\n  return 42\n}\n\nfunction helper() {\n  return "hello"\n}\n',
    'src/components/Button.tsx': 'export function Button() {\n  // TODO style\n  return null\n}\n',
    'src/components/button.test.ts': 'import { Button } from "./Button"\ntest("hello", () => Button())\n',
    'docs/guide.md': 'Guide\n=====\n\nSay hello.\n\nTODO: more\n',
    '.hidden/secret.ts': 'export const token = "hello"\n',
    '.env': 'HELLO=world\n',
    'node_modules/pkg/index.js': 'module.exports = "hello"\n',
    'node_modules/pkg/lib.ts': 'export const lib = "hello"\n',
    'debug.log': 'hello log\n',
    'build/out.js': 'console.log("hello")\n',
    'sub/.gitignore': 'generated.ts\n',
    'sub/generated.ts': 'export const generated = "hello"\n',
    'sub/real.ts': 'export const real = "hello"\nfunction x() {\n  return 1\n}\n',
    'crlf.txt': 'first hello\r\nsecond\r\nthird hello\r\n',
    'bin.dat': Buffer.concat([Buffer.from('abc'), Buffer.from([0]), Buffer.from('hello')])
  }
  execFileSync('git', ['init', '-q', root])
  const base = 1_700_000_000
  const mtimes: Record<string, number> = {}
  Object.keys(files).forEach((rel, i) => (mtimes[rel] = base + i * 10))
  writeTree(root, files, mtimes)
}

/** The fixture in a temporary folder for the calling test file: written before its tests, removed after them. */
export function useSearchFixture(): { readonly dir: string } {
  const fixture = { dir: '' }
  let cleanup = (): void => {}
  beforeAll(() => {
    ;({ dir: fixture.dir, cleanup } = makeTempDir())
    writeSearchFixture(fixture.dir)
  })
  afterAll(() => cleanup())
  return fixture
}

/** A search tool's options: `undefined` is rg from PATH; 0 entries in-process makes every search go to rg (a small tree would not). */
export function searchOptions(
  cwd: string,
  ripgrep: string | false | undefined
): { cwd: string; ripgrep: string | false | undefined; inProcessSearchUpTo?: number } {
  return { cwd, ripgrep, ...(ripgrep === false ? {} : { inProcessSearchUpTo: 0 }) }
}
