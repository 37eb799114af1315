// The two search engines must give the same answer whichever one a search picks (search-engine.ts): rg,
// and the in-process walk and regex used for small trees. Compared here on a hostile tree — ignore files at
// every level with negations, anchors and escapes, names that are glob syntax, unicode in both normal forms,
// a newline in a name, symlinks (to files, folders, nowhere, themselves), a fifo, deep nesting, a nested
// repository, binary and CRLF text — through the tools themselves, with the path policy protecting files.
import { execFileSync } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rulesFrom } from '../permissions/rules'
import { PathPolicy } from '../security/path-policy'
import { createGlobTool } from './glob'
import { createGrepTool } from './grep'
import { listFiles } from './list-files'
import { findRipgrep } from './ripgrep'
import { IN_PROCESS_SEARCH_UP_TO } from './search-engine'
import { makeTempDir, toolContext, writeTree } from './test-kit'
import { runTool } from '../tool-call/execute'

let dir: string
let cleanup: () => void
let policy: PathPolicy
const rg = findRipgrep()

const hostile: Record<string, string | Buffer> = {
  '.gitignore': [
    '# a comment, then rules of every kind',
    '*.log',
    '!keep.log',
    'build/',
    '/rootonly.txt',
    'docs/**/draft-*.md',
    '**/tmp',
    '\\#hash.txt',
    '\\!bang.txt',
    'trailing-space.txt   ',
    '*.[oa]',
    'vendor',
    '!vendor/keep.ts',
    'nested/*/gen/',
    'Case.TXT'
  ].join('\n'),
  '.ignore': 'ignored-by-ignore.txt\nalso-ignored.txt\n',
  '.rgignore': '!also-ignored.txt\n',
  'keep.log': 'kept log line\n',
  'app.log': 'ignored log line\n',
  'build/out.js': 'built\n',
  'rootonly.txt': 'root only\n',
  'a/rootonly.txt': 'not at the root: kept\n',
  'docs/x/y/draft-1.md': 'draft\n',
  'docs/draft-2.md': 'draft two\n',
  'docs/final.md': 'final text\n',
  'a/tmp/f.txt': 'tmp\n',
  'tmp/g.txt': 'tmp\n',
  '#hash.txt': 'hash\n',
  '!bang.txt': 'bang\n',
  'trailing-space.txt': 'trailing\n',
  'lib.o': 'object\n',
  'lib.a': 'archive\n',
  'lib.c': 'int main() { return 0; }\n',
  'vendor/keep.ts': 'export const vendored = 1\n',
  'vendor/x.ts': 'export const x = 1\n',
  'nested/p/gen/g.ts': 'generated\n',
  'nested/p/q/gen/h.ts': 'not generated: two levels\n',
  'ignored-by-ignore.txt': 'ignore file\n',
  'also-ignored.txt': 'rgignore brings it back\n',
  'case.txt': 'lower case name\n',
  'Case.TXT': 'upper case name\n',
  'sub/.gitignore': '*.ts\n!important.ts\n',
  'sub/a.ts': 'export const a = "sub"\n',
  'sub/important.ts': 'export const important = true\n',
  'sub/deeper/b.ts': 'export const b = 2\n',
  'sub/deeper/important.ts': 'export const deeperImportant = true\n',
  'unicode/café.ts': 'export const café = "naïve"\n',
  'unicode/cafe\u0301-nfd.ts': 'export const nfd = "cafe\u0301"\n',
  'unicode/日本語.md': '日本語のテキスト hello\n',
  'unicode/emoji-😀.txt': 'emoji 😀 hello\n',
  'unicode/Straße.txt': 'STRASSE straße Größe ÜBER über\n',
  'meta/[abc].ts': 'brackets\n',
  'meta/{a,b}.ts': 'braces\n',
  'meta/*.ts': 'a literal star\n',
  'meta/?.ts': 'a literal question mark\n',
  'meta/-rf.ts': 'a dash first\n',
  'meta/back\\slash.ts': 'a backslash\n',
  'meta/new\nline.ts': 'a newline in the name\n',
  'meta/sp ace.ts': 'a space\n',
  'meta/trailing-space.ts ': 'a trailing space\n',
  '.hidden/h.ts': 'export const hidden = 1\n',
  '.config.json': '{"hello": true}\n',
  'nested-repo/.gitignore': '*.md\n',
  'nested-repo/readme.md': 'ignored inside the nested repository\n',
  'nested-repo/code.ts': 'export const nested = 1\n',
  'nested-repo/app.log': 'a log the outer rules ignore\n',
  'text/crlf.txt': 'first hello\r\nsecond\r\nthird hello\r\n',
  'text/no-newline.txt': 'hello at the end',
  'text/bom.txt': '\ufeffhello after a BOM\n',
  'text/utf16.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello in UTF-16\nsecond line\n', 'utf16le')]),
  'text/long.txt': `${'x'.repeat(5000)} hello ${'y'.repeat(5000)}\n`,
  'text/words.txt': 'hello_world hello-world HELLO helloworld\nword boundary: hello.\n123 ٣ digits\n',
  'bin/data.bin': Buffer.concat([Buffer.from('hello binary'), Buffer.from([0, 1, 2]), Buffer.from('hello again')]),
  'secrets/key.pem': 'hello secret key\n',
  'config/.env': 'HELLO=world\n'
}

beforeAll(() => {
  ;({ dir, cleanup } = makeTempDir('fanout-hostile-'))
  execFileSync('git', ['init', '-q', dir])
  writeTree(dir, hostile)
  writeFileSync(join(dir, '.git/info/exclude'), 'excluded-by-info.txt\n')
  writeFileSync(join(dir, 'excluded-by-info.txt'), 'info exclude\n')
  execFileSync('git', ['init', '-q', join(dir, 'nested-repo')])
  let deep = join(dir, 'deep')
  for (let i = 0; i < 40; i++) deep = join(deep, `level${i}`)
  mkdirSync(deep, { recursive: true })
  writeFileSync(join(deep, 'leaf.ts'), 'export const leaf = "hello from the bottom"\n')
  mkdirSync(join(dir, 'empty'))
  mkdirSync(join(dir, 'links'))
  symlinkSync('../sub/important.ts', join(dir, 'links/to-file.ts'))
  symlinkSync('../sub', join(dir, 'links/to-dir'))
  symlinkSync('nowhere.ts', join(dir, 'links/broken.ts'))
  symlinkSync('.', join(dir, 'links/loop'))
  execFileSync('mkfifo', [join(dir, 'text/pipe')])
  policy = new PathPolicy({ cwd: dir, rules: () => rulesFrom({ deny: ['Read(./secrets/**)', 'Read(**/.env)'] }, 'project', dir) })
})
afterAll(() => cleanup())

type Engine = 'rg' | 'js' | 'auto'
const options = (engine: Engine) => ({
  cwd: dir,
  paths: policy,
  ...(engine === 'js' ? { ripgrep: false as const } : engine === 'rg' ? { ripgrep: rg!, inProcessSearchUpTo: 0 } : {})
})
const glob = (engine: Engine, input: Record<string, unknown>) => runTool(createGlobTool(options(engine)), input, toolContext())
const grep = (engine: Engine, input: Record<string, unknown>) => runTool(createGrepTool(options(engine)), input, toolContext())

describe.skipIf(!rg)('search engines on a hostile tree', () => {
  it('list the same files: ignore rules, names, links, fifos and nested repositories alike', async () => {
    const withRg = [...(await listFiles(dir, rg, undefined, 0)).files].sort()
    const inProcess = await listFiles(dir, rg)
    expect(inProcess.engine).toBe('js')
    expect([...inProcess.files].sort()).toEqual(withRg)
    // What a reader of .gitignore expects, spelled out for the cases that are easy to get wrong.
    for (const kept of [
      'keep.log',
      'a/rootonly.txt',
      'nested/p/q/gen/h.ts',
      'sub/important.ts',
      'sub/deeper/important.ts',
      'also-ignored.txt',
      'meta/new\nline.ts',
      'meta/trailing-space.ts ',
      'case.txt',
      'nested-repo/app.log',
      'nested-repo/code.ts',
      'config/.env',
      'secrets/key.pem'
    ])
      expect(withRg).toContain(kept)
    for (const gone of [
      'app.log',
      'build/out.js',
      'rootonly.txt',
      'docs/x/y/draft-1.md',
      'docs/draft-2.md',
      'a/tmp/f.txt',
      'tmp/g.txt',
      '#hash.txt',
      '!bang.txt',
      'lib.o',
      'vendor/keep.ts',
      'nested/p/gen/g.ts',
      'sub/a.ts',
      'ignored-by-ignore.txt',
      'excluded-by-info.txt',
      'trailing-space.txt',
      'nested-repo/readme.md',
      'links/to-file.ts',
      'text/pipe',
      'Case.TXT'
    ])
      expect(withRg).not.toContain(gone)
  })

  const globs = [
    '**/*',
    '**/*.ts',
    '*.ts',
    'meta/*',
    'meta/\\[abc\\].ts',
    'unicode/**',
    '**/*.TXT',
    '**/[Cc]ase.*',
    'deep/**/leaf.ts',
    'vendor/**',
    'nested-repo/*',
    '**/.*',
    '**/*.{md,txt}',
    'secrets/**',
    '**/.env',
    'links/**'
  ]
  for (const pattern of globs) {
    it(`Glob ${JSON.stringify(pattern)}: the same files from rg, the in-process walk and the automatic choice`, async () => {
      const [r, j, a] = await Promise.all((['rg', 'js', 'auto'] as const).map((e) => glob(e, { pattern })))
      expect((r.details as { engine: string }).engine).toBe('rg')
      expect((a.details as { engine: string }).engine).toBe('js')
      expect(j.content).toBe(r.content)
      expect(a.content).toBe(r.content)
      expect(r.content).not.toMatch(/secrets\/key\.pem|config\/\.env/)
    })
  }

  const queries: Record<string, unknown>[] = [
    { pattern: 'hello' },
    { pattern: 'hello', output_mode: 'content' },
    { pattern: 'hello', output_mode: 'count', '-i': true },
    { pattern: 'straße', '-i': true, output_mode: 'content' },
    { pattern: 'über', '-i': true, output_mode: 'content' },
    { pattern: 'café|naïve', output_mode: 'content' },
    { pattern: '日本', output_mode: 'content' },
    { pattern: '😀', output_mode: 'content' },
    { pattern: '\\bhello\\b', output_mode: 'content' },
    { pattern: 'hello\\w+', output_mode: 'content' },
    { pattern: '^hello', output_mode: 'content' },
    { pattern: 'hello$', output_mode: 'content' },
    { pattern: 'first.*\\n.*second', multiline: true, output_mode: 'content' },
    { pattern: 'export const \\w+ = ', glob: '**/*.ts', output_mode: 'count' },
    { pattern: 'hello', glob: '!text/**', output_mode: 'content' },
    { pattern: 'brackets|braces|star|question|dash|backslash|newline|space', output_mode: 'content' },
    { pattern: 'x{3}', path: 'text/long.txt', output_mode: 'count' },
    { pattern: 'hello', path: 'text/crlf.txt', output_mode: 'content', '-C': 1 },
    { pattern: 'hello', type: 'ts' },
    { pattern: 'secret|HELLO=', output_mode: 'content' },
    { pattern: 'generated|vendored|info exclude|ignored', output_mode: 'content' },
    { pattern: 'hello.', output_mode: 'content' },
    { pattern: 'hello.$', path: 'text/crlf.txt', output_mode: 'content' },
    { pattern: '\\d', path: 'text/words.txt', output_mode: 'content' },
    { pattern: '\\W+world', output_mode: 'content' },
    { pattern: '[]x]{3}', path: 'text/long.txt', output_mode: 'count' },
    { pattern: '\\#|\\-rf|\\x{1F600}', output_mode: 'content' },
    { pattern: '(?P<word>hel+o)_', output_mode: 'content' },
    { pattern: 'UTF-16', output_mode: 'content' },
    { pattern: '^second', multiline: true, output_mode: 'content' },
    { pattern: 'hello$', multiline: true, output_mode: 'content' }
  ]
  // rg reads these its own way or refuses them: the automatic choice must leave them to rg.
  const rgOnly: Record<string, unknown>[] = [
    { pattern: '(?i)hello world', output_mode: 'content' },
    { pattern: 'hello(?=_)', output_mode: 'content' },
    { pattern: '(hel)lo\\1', output_mode: 'content' },
    { pattern: '[[:upper:]]{5}', output_mode: 'content' },
    { pattern: '\\p{Han}+', output_mode: 'content' },
    { pattern: '[a-z&&[^aeiou]]{6}', output_mode: 'count' }
  ]
  for (const q of rgOnly) {
    it(`Grep ${JSON.stringify(q)}: the automatic choice answers as rg does`, async () => {
      const [r, a] = await Promise.all((['rg', 'auto'] as const).map((e) => grep(e, q)))
      expect((a.details as { engine: string } | undefined)?.engine ?? 'rg').toBe('rg')
      expect(a.content).toBe(r.content)
      expect(a.isError).toBe(r.isError)
    })
  }
  for (const q of queries) {
    it(`Grep ${JSON.stringify(q)}: the same output from rg, in-process and the automatic choice`, async () => {
      const [r, j, a] = await Promise.all((['rg', 'js', 'auto'] as const).map((e) => grep(e, q)))
      expect(r.isError).toBeFalsy()
      expect((r.details as { engine: string }).engine).toBe('rg')
      expect(j.content).toBe(r.content)
      expect(a.content).toBe(r.content)
      expect(r.content).not.toMatch(/secrets\/key\.pem|config\/\.env/)
    })
  }

  it(`leaves a tree of more than ${IN_PROCESS_SEARCH_UP_TO} entries to rg, with the same answer`, async () => {
    const { dir: big, cleanup: done } = makeTempDir('fanout-big-tree-')
    try {
      const files: Record<string, string> = { '.gitignore': 'skip/\n' }
      for (let i = 0; i < IN_PROCESS_SEARCH_UP_TO + 10; i++) files[`d${i % 40}/f${i}.ts`] = i % 7 ? 'plain\n' : 'needle\n'
      files['skip/needle.ts'] = 'needle\n'
      writeTree(big, files)
      const run = (e: Engine, input: Record<string, unknown>, tool: typeof createGlobTool | typeof createGrepTool) =>
        runTool(tool({ ...options(e), cwd: big, paths: new PathPolicy({ cwd: big }) }), input, toolContext())
      const a = await run('auto', { pattern: '**/*.ts' }, createGlobTool)
      expect((a.details as { engine: string }).engine).toBe('rg')
      expect(a.content).toBe((await run('js', { pattern: '**/*.ts' }, createGlobTool)).content)
      const g = await run('auto', { pattern: 'needle', output_mode: 'count' }, createGrepTool)
      expect((g.details as { engine: string }).engine).toBe('rg')
      expect(g.content).toBe((await run('js', { pattern: 'needle', output_mode: 'count' }, createGrepTool)).content)
    } finally {
      done()
    }
  })
})
