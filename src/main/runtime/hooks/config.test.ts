// Reading hook configuration as Claude Code writes it, and its matchers.
import { describe, expect, it } from 'vitest'
import { hooksFromSettings, matcherMatches, parseHooks } from './config'

describe('matcherMatches', () => {
  it('empty and * match everything; words and | are exact names; anything else is a regular expression', () => {
    expect(matcherMatches(undefined, 'Bash')).toBe(true)
    expect(matcherMatches('*', 'Bash')).toBe(true)
    expect(matcherMatches('Edit|Write', 'Write')).toBe(true)
    expect(matcherMatches('Edit|Write', 'NotebookEdit')).toBe(false)
    expect(matcherMatches('Bash', 'BashOutput')).toBe(false)
    expect(matcherMatches('mcp__github__.*', 'mcp__github__create_issue')).toBe(true)
    expect(matcherMatches('Notebook.*', 'Read')).toBe(false)
    expect(matcherMatches('general-purpose', 'general-purpose')).toBe(true)
  })

  it('matches a tool by its older name too: Task is the Agent tool, in a list and in a regular expression', () => {
    expect(matcherMatches('Task', 'Agent', ['Task'])).toBe(true)
    expect(matcherMatches('Bash|Task', 'Agent', ['Task'])).toBe(true)
    expect(matcherMatches('^Ta.k$', 'Agent', ['Task'])).toBe(true)
    expect(matcherMatches('Agent', 'Agent', ['Task'])).toBe(true)
    expect(matcherMatches('Task', 'TaskStop')).toBe(false)
    expect(matcherMatches('Task', 'Bash', [])).toBe(false)
  })
})

describe('parseHooks', () => {
  it('reads command hooks with their timeouts; in a definition, Stop is SubagentStop', () => {
    const { table, problems } = parseHooks(
      {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'check.sh', timeout: 5 }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'done.sh' }] }]
      },
      'agents/x.md',
      true
    )
    expect(problems).toEqual([])
    expect(table.PreToolUse).toEqual([{ matcher: 'Bash', hooks: [{ command: 'check.sh', timeoutSec: 5, source: 'agents/x.md' }] }])
    expect(table.SubagentStop).toEqual([{ hooks: [{ command: 'done.sh', timeoutSec: 60, source: 'agents/x.md' }] }])
  })

  it('says what is wrong with each broken entry and keeps the good ones', () => {
    const { table, problems } = parseHooks(
      {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'prompt', prompt: 'is this ok?' },
              { type: 'command', command: 'ok.sh', timeout: -1 }
            ]
          },
          { matcher: '(', hooks: [] },
          'nope'
        ],
        PostToolUse: { matcher: 'x' },
        SessionStart: [{ hooks: [{ type: 'command', command: 'ignored.sh' }] }],
        Teleport: []
      },
      '.claude/settings.json'
    )
    expect(table.PreToolUse).toEqual([{ matcher: 'Bash', hooks: [{ command: 'ok.sh', timeoutSec: 60, source: '.claude/settings.json' }] }])
    expect(problems).toEqual([
      '.claude/settings.json: hooks.PreToolUse[0].hooks[0]: hook type "prompt" is not supported by Fanout; only "command" hooks run',
      '.claude/settings.json: hooks.PreToolUse[0].hooks[1].timeout must be a number of seconds above 0; using 60',
      expect.stringMatching(/^\.claude\/settings\.json: hooks\.PreToolUse\[1\]\.matcher is not a valid regular expression \(.+\); these hooks never run$/),
      '.claude/settings.json: hooks.PreToolUse[2] must be an object with "matcher" and "hooks"',
      '.claude/settings.json: hooks.PostToolUse must be a list like [{"matcher": "Bash", "hooks": [{"type": "command", "command": "..."}]}]',
      '.claude/settings.json: unknown hook event "Teleport"; Fanout runs PreToolUse, PostToolUse, PostToolUseFailure, Notification, Stop, SubagentStart, SubagentStop, TeammateIdle, TaskCompleted, WorktreeCreate, WorktreeRemove, PreCompact, PostCompact, SessionStart, UserPromptSubmit, SessionEnd, PermissionRequest'
    ])
  })

  it('merges settings files in order, and disableAllHooks turns every hook off', () => {
    const a = { file: 'user.json', json: { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'a' }] }] } } }
    const b = { file: 'project.json', json: { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'b' }] }] } } }
    expect(hooksFromSettings([a, b]).table.PreToolUse.map((m) => m.hooks[0].command)).toEqual(['a', 'b'])
    expect(hooksFromSettings([a, b, { file: 'local.json', json: { disableAllHooks: true } }]).table.PreToolUse).toEqual([])
  })

  it("disableAllHooks turns off the hooks of its own level and below, never the person's: a folder silences only itself, and is told", () => {
    const hook = (command: string) => ({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } })
    const user = { file: '/h/.claude/settings.json', source: 'user', json: hook('guard.sh') }
    const managed = { file: '/etc/claude-code/managed-settings.json', source: 'managed', json: hook('policy.sh') }
    const project = { file: '/p/.claude/settings.json', source: 'project', json: { ...hook('repo.sh'), disableAllHooks: true } }
    const local = { file: '/p/.claude/settings.local.json', source: 'local', json: hook('local.sh') }
    const commands = (files: Array<{ file: string; source: string; json: Record<string, unknown> }>) =>
      hooksFromSettings(files).table.PreToolUse.flatMap((m) => m.hooks.map((h) => h.command))
    const fromFolder = hooksFromSettings([user, project, local, managed])
    expect(commands([user, project, local, managed])).toEqual(['guard.sh', 'policy.sh'])
    expect(fromFolder.problems).toEqual([
      expect.stringMatching(/^\/p\/\.claude\/settings\.json: "disableAllHooks": true turns off this folder's own hooks only; your hooks/)
    ])
    // The person's own file turns off theirs and the folder's; managed hooks stay. Managed turns off all.
    const userOff = { ...user, json: { ...user.json, disableAllHooks: true } }
    expect(commands([userOff, { ...project, json: hook('repo.sh') }, managed])).toEqual(['policy.sh'])
    expect(hooksFromSettings([userOff, project, managed]).problems).toEqual([])
    expect(commands([user, project, { ...managed, json: { ...managed.json, disableAllHooks: true } }])).toEqual([])
    // A folder that disables hooks where only its own exist: nothing to tell.
    expect(hooksFromSettings([project, local]).problems).toEqual([])
  })
})
