// Boots browser mode in-process for a spec: a temporary project folder, a data dir, a host from
// host-factory.ts, and startWebServer serving the built renderer. Restartable with the same data dir.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { execFileSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import type { RuntimeHost } from '../../src/shared/host'
import { startWebServer, type WebServer } from '../../src/main/web/server'
import { createE2eHost, type E2eHostOptions } from './host-factory'
import { REPO_ROOT } from './repo-root'

export interface BrowserMode {
  url: string
  server: WebServer
  host: RuntimeHost
  root: string
  project: string
  dataDir: string
  /** Stops the server and host and starts fresh ones on the same data (a restart), optionally changing host options. */
  restart(overrides?: Partial<E2eHostOptions>): Promise<void>
  close(): Promise<void>
}

/** An agent file's text: its frontmatter lines between `---` fences, then the prompt and a final newline. */
export const agentFile = (frontmatter: string[], prompt: string): string => ['---', ...frontmatter, '---', prompt, ''].join('\n')

const AGENTS: Record<string, string> = {
  'code-reviewer':
    '---\nname: code-reviewer\ndescription: Reviews code for correctness and error handling. Use after changes.\ntools: Read, Grep, Glob\ncolor: purple\nmodel: sonnet\n---\nYou review code carefully and report concrete findings with file:line.\n',
  'test-writer':
    '---\nname: test-writer\ndescription: Runs and writes tests.\ntools: Read, Grep, Glob, Bash\ncolor: green\nisolation: worktree\n---\nYou run the test suite and explain failures.\n',
  'docs-writer':
    '---\nname: docs-writer\ndescription: Checks documentation against the code.\ntools: Read, Grep, Glob\ncolor: orange\nmodel: haiku\n---\nYou compare docs with the code and list gaps.\n'
}

/** A small real project: a git repository with sources, tests, an npm test script and three agent files. */
export function makeProject(root: string): string {
  const project = join(root, 'tiny-parser')
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(project, rel)), { recursive: true })
    writeFileSync(join(project, rel), text)
  }
  write('README.md', '# tiny-parser\n\n`parse(src)` returns an AST.\n')
  write('src/parser.ts', 'import { lex } from "./lexer"\nexport function parse(src: string) {\n  const tokens = lex(src)\n  return tokens\n}\n')
  write('src/lexer.ts', 'export function lex(src: string) {\n  return src.split(/\\s+/)\n}\n')
  write('test/parser.test.ts', "describe('parse', () => {})\n")
  write('package.json', JSON.stringify({ name: 'tiny-parser', private: true, scripts: { test: 'node test/run.cjs' } }, null, 2))
  write('test/run.cjs', "console.log('\u2713 parses numbers\\n\u2713 parses calls\\n\u2717 reports the line of a bad token\\n\\n2 passed, 1 failed')\n")
  for (const [name, text] of Object.entries(AGENTS)) write(`.claude/agents/${name}.md`, text)
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Fanout e2e', '-c', 'user.email=e2e@fanout.invalid', ...args], { cwd: project, stdio: 'ignore' })
  git('init', '-q', '-b', 'main')
  git('add', '-A')
  git('commit', '-q', '-m', 'tiny parser')
  return project
}

export async function startBrowserMode(opts: Partial<E2eHostOptions> = {}): Promise<BrowserMode> {
  const root = mkdtempSync(join(tmpdir(), 'fanout-e2e-'))
  const project = makeProject(root)
  const dataDir = join(root, 'data')
  let options: E2eHostOptions = { cwd: project, dataDir, speed: 0.5, ...opts }
  const boot = async () => {
    const host = await createE2eHost(options)
    const server = await startWebServer({ host, rendererDir: join(REPO_ROOT, 'out/renderer') })
    return { host, server }
  }
  let { host, server } = await boot()
  const mode: BrowserMode = {
    url: server.url,
    server,
    host,
    root,
    project,
    dataDir,
    async restart(overrides = {}) {
      options = { ...options, ...overrides }
      await server.close()
      await host.close()
      ;({ host, server } = await boot())
      Object.assign(mode, { url: server.url, server, host })
    },
    async close() {
      await server.close()
      await host.close()
      rmSync(root, { recursive: true, force: true })
    }
  }
  return mode
}
