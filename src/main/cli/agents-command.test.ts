// `fanout agents list|check` end to end: spawns ./bin/fanout (the esbuild bundle, rebuilt here when a
// source file is newer) against real folders, with HOME pointing at a temporary home.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureCliBundle, repoRoot } from '../../../test/support/cli'

const root = repoRoot

let tmp: string
let home: string
let project: string

beforeAll(() => {
  ensureCliBundle()
  tmp = mkdtempSync(join(tmpdir(), 'fanout-cli-agents-'))
  home = join(tmp, 'home')
  project = join(tmp, 'project')
  write(join(home, '.claude/agents/helper.md'), '---\nname: helper\ndescription: Helps from home\ntools: "*"\n---\nHelp.\n')
  write(
    join(project, '.claude/agents/explore.md'),
    '---\nname: Explore\ndescription: Project explorer\ntools: Read, Grep\ncolor: green\nmodel: haiku\n---\nExplore.\n'
  )
  write(
    join(project, '.claude/agents/team/reviewer.md'),
    '---\nname: reviewer\ndescription: Reviews. Examples: see below\ndisallowedTools: Write, Edit\ncategory: quality\n---\nReview.\n'
  )
  write(join(project, '.claude/agents/broken.md'), '---\nname: broken\n')
}, 60_000)
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}

function fanout(args: string[], cwd = project) {
  const env = { ...process.env, HOME: home, FANOUT_MANAGED_AGENTS_DIR: join(tmp, 'no-managed') }
  const r = spawnSync(join(root, 'bin/fanout'), args, { cwd, env, encoding: 'utf8' })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe('fanout agents list', () => {
  it("prints the Agent tool's listing lines, with project and user agents and the override of a built-in", () => {
    const r = fanout(['agents', 'list'])
    expect(r.code).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines).toContain('- Explore: Project explorer (Tools: Read, Grep)')
    expect(lines).toContain('- helper: Helps from home (Tools: All tools)')
    expect(lines).toContain('- reviewer: Reviews. Examples: see below (Tools: All tools except Write, Edit)')
    expect(lines[0]).toMatch(/^- general-purpose: .* \(Tools: All tools\)$/)
    expect(lines.filter((l) => l.startsWith('- Explore:'))).toHaveLength(1)
    expect(r.stderr).toBe("fanout: 1 agent file was not loaded; run 'fanout agents check' to see why\n")
  })

  it('prints JSON with source, tools as written, shadows and diagnostics', () => {
    const r = fanout(['agents', 'list', '--json', '--cwd', project], tmp)
    expect(r.code).toBe(0)
    const agents = JSON.parse(r.stdout) as Record<string, any>[]
    const byName = new Map(agents.map((a) => [a.name, a]))
    expect(byName.get('Explore')).toEqual({
      name: 'Explore',
      source: 'project',
      description: 'Project explorer',
      tools: ['Read', 'Grep'],
      disallowedTools: null,
      model: 'haiku',
      color: 'green',
      file: join(project, '.claude/agents/explore.md'),
      shadows: [{ source: 'built-in', file: join(root, 'agents/2-Explore.md') }],
      diagnostics: []
    })
    expect(byName.get('helper')).toMatchObject({ source: 'user', tools: '*' })
    expect(byName.get('general-purpose')).toMatchObject({ source: 'built-in', tools: '*' })
    expect(byName.get('Plan')).toMatchObject({ tools: null, disallowedTools: ['Agent', 'Edit', 'Write', 'NotebookEdit', 'ExitPlanMode'], model: 'inherit' })
    expect(byName.get('reviewer')?.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'yaml-repaired', line: 3, column: 14 }),
      expect.objectContaining({ severity: 'info', code: 'unknown-key', line: 5, column: 1 })
    ])
    expect(byName.has('broken')).toBe(false)
  })

  it('takes agents from --agents JSON, above project agents', () => {
    const r = fanout(['agents', 'list', '--agents', '{"reviewer": {"description": "From the flag", "prompt": "p", "tools": ["Bash"]}}'])
    expect(r.stdout).toContain('- reviewer: From the flag (Tools: Bash)\n')
  })
})

describe('fanout agents check', () => {
  it('reports every source of the working directory as file:line:col: severity: message, exit 1 on a failed file', () => {
    const r = fanout(['agents', 'check'])
    expect(r.code).toBe(1)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines).toContain(
      '.claude/agents/broken.md:1:1: error: the frontmatter opened by `---` on line 1 is never closed by another `---` line; the agent is not loaded'
    )
    expect(lines).toContain('.claude/agents/team/reviewer.md:5:1: info: `category` is not an agent field; it is kept in the file but has no effect')
    expect(lines.at(-1)).toBe('10 agent files checked: 9 loaded, 1 failed (1 error, 1 warning, 1 info)')
  })

  it('checks the given paths, folders recursively, and exits 0 when all load', () => {
    const r = fanout(['agents', 'check', '.claude/agents/team', join(project, '.claude/agents/explore.md')])
    expect(r.code).toBe(0)
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('2 agent files checked: 2 loaded, 0 failed (0 errors, 1 warning, 1 info)')
  })

  it('warns about a misspelt tool and a model that is no Claude model, and still loads the file', () => {
    write(join(tmp, 'typos/weird.md'), '---\nname: weird\ndescription: Bad tools and model\ntools: Reed, Grep\nmodel: gpt-4\n---\nHelp.\n')
    const r = fanout(['agents', 'check', join(tmp, 'typos')])
    expect(r.code).toBe(0)
    const file = join(tmp, 'typos/weird.md')
    expect(r.stdout).toContain(
      `${file}:4:8: warning: \`tools\` lists "Reed", which is not a tool; did you mean \`Read\`? As written, the agent will not get it`
    )
    expect(r.stdout).toContain(`${file}:5:8: warning: \`model\` is "gpt-4", which is not a Claude model id`)
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('1 agent file checked: 1 loaded, 0 failed (0 errors, 2 warnings, 0 info)')
  })

  it('reports a repaired file with the line and column of the repaired value', () => {
    write(join(tmp, 'repair/a.md'), '---\nname: a\ndescription: Use it. Examples: Context: x\n---\n')
    const r = fanout(['agents', 'check', join(tmp, 'repair')])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`${join(tmp, 'repair/a.md')}:3:14: warning: the value of \`description\` contains ": "`)
  })
})

describe('fanout agents: usage errors', () => {
  it.each([
    [['agents'], /Usage:/],
    [['agents', 'frob'], /unknown subcommand 'frob'/],
    [['agents', 'list', '--cwd'], /--cwd needs a value/],
    [['agents', 'list', 'extra'], /takes no arguments \(got 'extra'\)/],
    [['agents', 'check', '--json'], /unknown option --json for 'fanout agents check'/]
  ])('%j exits 2 with a clear message', (args, message) => {
    const r = fanout(args)
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stdout).toBe('')
  })

  it('fanout help mentions the agents commands', () => {
    expect(fanout(['help']).stdout).toContain('fanout agents list')
  })
})
