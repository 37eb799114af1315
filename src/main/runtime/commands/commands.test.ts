// Slash commands: reading command files, filling in arguments and finding `!` blocks as Claude Code 2.1 does
// (test/differential/commands.test.ts checks the same against Claude Code itself), and what a hostile file
// cannot make the loader or the expansion do.
import { mkfifoSync } from './testing/fifo'
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempTree, type TempTree } from '../context/testing/temp-tree'
import {
  answerBuiltin,
  commandBlock,
  escapeBang,
  expandCommand,
  fileMentions,
  findShellBlocks,
  loadCommands,
  parseCommand,
  parseSlash,
  resolvePrompt,
  ruleList,
  splitArguments,
  substituteArguments,
  type CommandEffects
} from '.'

describe('arguments', () => {
  it('splits words as a shell would, else at whitespace', () => {
    expect(splitArguments('"a b" c')).toEqual(['a b', 'c'])
    expect(splitArguments("it's")).toEqual(["it's"])
    expect(splitArguments(' x  y ')).toEqual(['x', 'y'])
    expect(splitArguments('a\\ b')).toEqual(['a b'])
    expect(splitArguments('')).toEqual([])
  })

  it('fills $ARGUMENTS, 0-based $N and $ARGUMENTS[N]; leaves missing ones; \\$ stays literal', () => {
    const text = 'A=[$0] B=[$1] C=[$ARGUMENTS[1]] D=[$5] E=[$ARGUMENTS[7]] F=[\\$ARGUMENTS] G=[$ARGUMENTS]'
    expect(substituteArguments(text, 'one two')).toBe('A=[one] B=[two] C=[two] D=[$5] E=[$ARGUMENTS[7]] F=[$ARGUMENTS] G=[one two]')
  })

  it('appends ARGUMENTS: when no placeholder took them, and only then', () => {
    expect(substituteArguments('BODY', 'x y', { appendIfUnused: true })).toBe('BODY\n\nARGUMENTS: x y')
    expect(substituteArguments('BODY $0', 'x y', { appendIfUnused: true })).toBe('BODY x')
    expect(substituteArguments('BODY', '', { appendIfUnused: true })).toBe('BODY')
  })

  it('fills named arguments, longest name first', () => {
    expect(substituteArguments('$first/$firstname/$second', 'a b c', { names: ['first', 'firstname', 'second'] })).toBe('a/b/c')
  })

  it('never reads a filled-in value as a placeholder', () => {
    expect(substituteArguments('[$ARGUMENTS] [$0]', '$1 $ARGUMENTS')).toBe('[$1 $ARGUMENTS] [$1]')
    expect(substituteArguments('[$0]', '\uFFFF')).toBe('[\uFFFD]')
  })

  it('escapes a ! in typed arguments so it cannot open a shell block', () => {
    expect(escapeBang('!`touch x` z')).toBe('\\! `touch x` z')
    expect(escapeBang('a `!b`')).toBe('a ` \\!b`')
    expect(findShellBlocks(escapeBang('!`rm -rf /`'))).toEqual([])
  })
})

describe('shell blocks', () => {
  it('finds inline and fenced blocks in order', () => {
    const blocks = findShellBlocks('A !`echo one`\n```!\necho two\n```\n!`echo three`')
    expect(blocks.map((b) => b.command)).toEqual(['echo one', 'echo two', 'echo three'])
  })

  it('a ! inside an ordinary code span or after a letter is text', () => {
    expect(findShellBlocks('use `x !`echo no`` here and a!`echo no`')).toEqual([])
  })
})

describe('command files', () => {
  it('reads the frontmatter Claude Code reads', () => {
    const c = parseCommand(
      '---\ndescription: Does it\nargument-hint: <x>\nallowed-tools: Bash(git add:*), Bash(git status:*) Read\nmodel: haiku\ndisable-model-invocation: true\n---\nBODY\n',
      'n',
      'project',
      '/p/n.md'
    )
    expect(c).toMatchObject({
      description: 'Does it',
      argumentHint: '<x>',
      allowedTools: ['Bash(git add:*)', 'Bash(git status:*)', 'Read'],
      model: 'haiku',
      disableModelInvocation: true,
      body: 'BODY\n'
    })
    expect(ruleList(['Bash(a, b)', 'Read'])).toEqual(['Bash(a, b)', 'Read'])
  })

  it('a file without frontmatter is all prompt; its first line describes it', () => {
    expect(parseCommand('# Review the diff\nthen more', 'r', 'user', '/r.md')).toMatchObject({ description: 'Review the diff', allowedTools: [] })
  })

  it('bad YAML loads the command without its frontmatter, and says why', () => {
    const c = parseCommand('---\ndescription: [\n---\nBODY', 'b', 'project', '/b.md')
    expect(c.body).toBe('BODY')
    expect(c.problem).toMatch(/not valid YAML/)
  })
})

describe('resolving a prompt', () => {
  const cmd = parseCommand('X', 'frontend:component', 'project', '/x.md')
  it('a command, a built-in, or text for the model', () => {
    expect(parseSlash('/a:b  c d ')).toEqual({ name: 'a:b', args: 'c d' })
    expect(parseSlash('not /a')).toBeNull()
    expect(parseSlash('  /a')).toBeNull()
    expect(resolvePrompt('/frontend:component Btn', [cmd])).toMatchObject({ kind: 'command', args: 'Btn' })
    expect(resolvePrompt('/cost', [])).toEqual({ kind: 'builtin', name: 'cost', args: '' })
    expect(resolvePrompt('/foo bar', [])).toEqual({ kind: 'text' })
    expect(resolvePrompt('/ x', [])).toEqual({ kind: 'text' })
  })

  it("built-ins answer in Claude Code's words", () => {
    expect(answerBuiltin('help', () => ({}) as never)).toEqual({ text: "/help isn't available in this environment." })
    expect(answerBuiltin('foo', () => ({}) as never)).toBeNull()
    const mcp = (mcpStatuses: string[]) => answerBuiltin('mcp', () => ({ mcpStatuses }) as never)
    expect(mcp(['failed'])).toEqual({
      text: '1 MCP server: 0 connected, 1 not connected, 0 disabled. Use `/mcp` in the terminal for details.',
      localCommand: 'mcp'
    })
    expect(mcp(['connected', 'disabled', 'untrusted'])?.text).toBe(
      '3 MCP servers: 1 connected, 1 not connected, 1 disabled. Use `/mcp` in the terminal for details.'
    )
    expect(mcp([])?.text).toMatch(/^No MCP servers are configured\./)
    expect(answerBuiltin('agents', () => ({}) as never)).toMatchObject({ text: expect.stringContaining('.claude/agents/'), localCommand: 'agents' })
  })
})

describe('expanding', () => {
  const ran: string[] = []
  const effects = (over: Partial<CommandEffects> = {}): CommandEffects => ({
    shell: async (c) => {
      ran.push(c)
      return { ok: true, stdout: `OUT(${c})\n` }
    },
    read: async () => null,
    ...over
  })
  afterEach(() => void ran.splice(0))

  it('runs only the file’s own blocks, before the arguments are filled in', async () => {
    const c = parseCommand('S: !`echo "$0"`\nA: $ARGUMENTS', 'x', 'project', '/x.md')
    const e = await expandCommand(c, '!`touch pwned` z', effects({ shell: async (cmd) => (ran.push(cmd), { ok: true, stdout: 'OUT\n' }) }))
    expect(ran).toEqual(['echo "$0"'])
    expect(e).toMatchObject({ kind: 'prompt', prompt: 'S: OUT\nA: \\! `touch pwned` z' })
    if (e.kind === 'prompt') expect(e.blocks.map((b) => (b as { text: string }).text)).toEqual([commandBlock('x', '!`touch pwned` z'), e.prompt])
  })

  it('a refused or failed block answers the run itself', async () => {
    const c = parseCommand('S: !`rm -rf x`', 'x', 'project', '/x.md')
    expect(await expandCommand(c, '', effects({ shell: async () => ({ ok: false, denied: 'needs approval' }) }))).toEqual({
      kind: 'answer',
      text: 'Shell command permission check failed for pattern "!`rm -rf x`": needs approval',
      localCommand: 'custom'
    })
    expect(await expandCommand(c, '', effects({ shell: async () => ({ ok: false, failed: 'boom' }) }))).toMatchObject({
      text: 'Shell command failed for pattern "!`rm -rf x`": boom'
    })
  })

  it('attaches what the read path allows, and nothing it refuses', async () => {
    const asked: string[] = []
    const c = parseCommand('See @notes.txt, @../../etc/passwd and @"a b.txt".', 'x', 'project', '/x.md')
    expect(fileMentions(c.body)).toEqual(['notes.txt', '../../etc/passwd', 'a b.txt'])
    const e = await expandCommand(
      c,
      '',
      effects({
        read: async (p) => {
          asked.push(p)
          return p === 'notes.txt' ? { path: '/p/notes.txt', content: '     1\tNOTES' } : null
        }
      })
    )
    expect(asked).toEqual(['notes.txt', '../../etc/passwd', 'a b.txt'])
    const texts = e.kind === 'prompt' ? e.blocks.map((b) => (b as { text: string }).text) : []
    expect(texts).toHaveLength(4)
    expect(texts[1]).toContain('NOTES')
    expect(texts.join('\n')).not.toContain('root:')
  })
})

describe('loading', () => {
  let t: TempTree
  afterEach(() => t?.cleanup())

  it("finds user, project and extra folders, subfolders as folder:name, then skills; the first name found wins (the user's)", async () => {
    t = makeTempTree()
    t.write(join(t.repo, '.claude/commands/review.md'), 'PROJECT REVIEW')
    t.write(join(t.repo, '.claude/commands/frontend/component.md'), '---\ndescription: comp\nargument-hint: <name>\n---\nC')
    t.write(join(t.home, '.claude/commands/review.md'), 'USER REVIEW')
    t.write(join(t.home, '.claude/commands/mine.md'), 'MINE')
    t.write(join(t.root, 'plugin/commands/deploy.md'), 'DEPLOY')
    t.write(join(t.repo, '.claude/skills/greet/SKILL.md'), '---\nname: greet\ndescription: Greets\n---\nG')
    t.write(join(t.repo, '.claude/skills/hidden/SKILL.md'), '---\nname: hidden\nuser-invocable: false\n---\nH')
    const all = await loadCommands({ cwd: t.repo, home: t.home, extraFolders: [{ dir: join(t.root, 'plugin/commands'), namespace: 'tools' }] })
    expect(all.map((c) => [c.name, c.source])).toEqual([
      ['mine', 'user'],
      ['review', 'user'],
      ['frontend:component', 'project'],
      ['tools:deploy', 'plugin'],
      ['greet', 'skill']
    ])
    expect(all[2]).toMatchObject({ description: 'comp', argumentHint: '<name>' })
    expect(all.find((c) => c.name === 'review')?.body).toBe('USER REVIEW')
    expect(all.find((c) => c.name === 'greet')?.skillDir).toBe(join(t.repo, '.claude/skills/greet'))
  })

  it("a plugin manifest's single command file is the only one of its folder; a folder-brought plugin's commands say so", async () => {
    t = makeTempTree()
    t.write(join(t.root, 'kit/extra/one.md'), '---\nallowed-tools: Bash(rm:*)\n---\nONE')
    t.write(join(t.root, 'kit/extra/two.md'), 'TWO')
    const all = await loadCommands({
      cwd: t.repo,
      home: t.home,
      extraFolders: [{ dir: join(t.root, 'kit/extra'), namespace: 'kit', file: join(t.root, 'kit/extra/one.md'), folderBrought: true }]
    })
    expect(all.map((c) => [c.name, c.folderBrought])).toEqual([['kit:one', true]])
  })

  it("a repository's command that links out of it, or to a pipe, is not offered", async () => {
    t = makeTempTree()
    t.write(join(t.root, 'secret.txt'), 'SECRET')
    mkdirSync(join(t.repo, '.claude/commands'), { recursive: true })
    symlinkSync(join(t.root, 'secret.txt'), join(t.repo, '.claude/commands/leak.md'))
    symlinkSync('/etc', join(t.repo, '.claude/commands/etc'))
    mkfifoSync(join(t.repo, '.claude/commands/pipe.md'))
    t.write(join(t.repo, '.claude/commands/ok.md'), 'OK')
    const all = await loadCommands({ cwd: t.repo, home: t.home })
    expect(all.map((c) => c.name)).toEqual(['ok'])
  })
})
