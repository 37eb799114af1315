import { execFileSync } from 'node:child_process'
import { linkSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { decidePermission } from '../permissions/decide'
import { emptyRules, rulesFrom } from '../permissions/rules'
import { useTempDirs, writeTree } from '../tools/test-kit'
import { PathPolicy } from './path-policy'
import { foldSegment, hookCommandFiles, knownHooksPaths, namesProtectedPath, protectedReason, refreshHooksPath } from './protected-paths'
import { sandboxPolicy } from './sandbox/sandbox-policy'

let project: string
let home: string
useTempDirs('all', ['fanout-prot-', 'fanout-prot-home-'], (a, b) => {
  project = a
  home = b
  writeTree(project, { 'src/a.ts': 'a', '.husky/_/h': '', '.husky/pre-commit': 'x', 'scripts/guard.sh': 'x', '.vscode/tasks.json': '{}' })
  execFileSync('git', ['init', '-q'], { cwd: project })
  execFileSync('git', ['config', 'core.hooksPath', 'tools/hooks'], { cwd: project })
})

describe('the protected-path list', () => {
  const where = () => ({ roots: [project], home })
  it('folds case, compatibility forms and invisible characters as a forgiving file system would', () => {
    expect(foldSegment('.GIT')).toBe('.git')
    expect(foldSegment('.gi\u200ct')).toBe('.git')
    expect(foldSegment('GIT~1')).toBe('.git')
    expect(foldSegment('.claude. ')).toBe('.claude')
    expect(foldSegment('\uff0eclaude')).toBe('.claude') // fullwidth full stop
    expect(foldSegment('.g\u0130t')).toBe('.git')
    expect(foldSegment('.g\u0131t')).toBe('.git')
    expect(foldSegment('.hu\u017fky')).toBe('.husky')
  })

  it('protects by segment, below the roots only after the root, and names the reason', () => {
    for (const rel of [
      '.claude/hooks/x.sh',
      '.Husky/pre-commit',
      '.git/hooks/a',
      '.idea/x',
      '.devcontainer/devcontainer.json',
      'sub/.envrc',
      '.zshenv',
      '.mcp.json'
    ])
      expect(protectedReason(join(project, rel), where()), rel).not.toBeNull()
    for (const rel of ['src/a.ts', '.gitattributes', '.github/workflows/ci.yml', 'package.json', 'my.git/x', 'claude/x'])
      expect(protectedReason(join(project, rel), where()), rel).toBeNull()
    expect(protectedReason(join(home, '.ssh/authorized_keys'), where())).toContain('~/.ssh')
    expect(protectedReason(join(home, '.claude.json'), where())).not.toBeNull()
    // A project that lives under a folder named .claude is not protected whole.
    expect(protectedReason('/x/.claude/proj/src/a.ts', { roots: ['/x/.claude/proj'], home })).toBeNull()
    expect(protectedReason('/elsewhere/.git/config', { roots: [project], home })).not.toBeNull()
  })

  it('an allow rule that names a protected path is explicit; a broad one is not', () => {
    expect(namesProtectedPath('./.vscode/settings.json')).toBe(true)
    expect(namesProtectedPath('~/.ssh/config')).toBe(true)
    expect(namesProtectedPath('./**')).toBe(false)
    expect(namesProtectedPath('src/**')).toBe(false)
  })

  it('finds the files a hook command runs, wherever they live', () => {
    expect(hookCommandFiles('bash "$CLAUDE_PROJECT_DIR/scripts/guard.sh" --fast', project, home)).toEqual([join(project, 'scripts/guard.sh')])
    expect(hookCommandFiles('echo hi && ./scripts/guard.sh', project, home)).toEqual([join(project, 'scripts/guard.sh')])
    expect(hookCommandFiles('npm run lint', project, home)).toEqual([])
  })

  it("reads the configured hooks path through git; husky's `_` protects its parent", async () => {
    expect(await refreshHooksPath(project)).toEqual([join(project, 'tools/hooks')])
    execFileSync('git', ['config', 'core.hooksPath', '.husky/_'], { cwd: project })
    expect(await refreshHooksPath(join(project))).toEqual([join(project, '.husky/_'), join(project, '.husky')])
    execFileSync('git', ['config', 'core.hooksPath', 'tools/hooks'], { cwd: project })
    await refreshHooksPath(project)
    expect(knownHooksPaths(project)).toEqual([join(project, 'tools/hooks')])
    const policy = new PathPolicy({ cwd: project, home })
    expect(policy.protectedWrite(join(project, 'tools/hooks/pre-push'))).toContain('git or a hook runs')
    expect(policy.protectedWrite(join(project, 'TOOLS/hooks/pre-push'))).toContain('git or a hook runs')
  })

  it('a file with another hard link is protected (the other name may be a hook)', () => {
    mkdirSync(join(project, 'lib'), { recursive: true })
    writeFileSync(join(project, 'lib/plain.sh'), 'x')
    linkSync(join(project, '.husky/pre-commit'), join(project, 'lib/alias.sh'))
    const policy = new PathPolicy({ cwd: project, home })
    expect(policy.protectedWrite(join(project, 'lib/alias.sh'))).toContain('hard links')
    expect(policy.protectedWrite(join(project, 'lib/plain.sh'))).toBeNull()
    // The sandbox denies the other name too.
    const sandbox = sandboxPolicy('workspace', { paths: policy, tmpDir: '/tmp/x', allowedDomains: [] })
    expect(sandbox.denyWrite).toContain(join(project, 'lib/alias.sh'))
    expect(sandbox.denyWrite).toContain(join(project, '.husky'))
    expect(sandbox.denyWrite).not.toContain(join(project, '.npmrc')) // absent: nothing to protect, no placeholder
  })
})

describe('in every mode', () => {
  const call = (mode: Parameters<typeof decidePermission>[0]['mode'], file_path: string, rules = emptyRules()) =>
    decidePermission({ mode, tool: { name: 'Write', readOnly: false }, input: { file_path, content: 'x' }, rules, cwd: project, home })
  it('acceptEdits and bypass ask, plan and dontAsk deny, default asks; ordinary files keep their answers', () => {
    expect(call('acceptEdits', '.husky/pre-commit')).toMatchObject({ behavior: 'ask', protectedPath: true })
    expect(call('bypassPermissions', '.claude/hooks/x.sh')).toMatchObject({ behavior: 'ask', protectedPath: true })
    expect(call('default', '.vscode/tasks.json')).toMatchObject({ behavior: 'ask', protectedPath: true })
    expect(call('plan', '.husky/pre-commit').behavior).toBe('deny')
    expect(call('dontAsk', '.husky/pre-commit', rulesFrom({ allow: ['Write(./**)'] }, 'cli'))).toMatchObject({ behavior: 'deny' })
    expect(call('acceptEdits', 'src/b.ts').behavior).toBe('allow')
    expect(call('bypassPermissions', 'src/b.ts').behavior).toBe('allow')
    expect(call('dontAsk', 'src/b.ts', rulesFrom({ allow: ['Write(./**)'] }, 'cli')).behavior).toBe('allow')
  })

  it('a broad allow rule does not cover a protected path; one naming it does; a deny rule still wins', () => {
    expect(call('default', '.husky/pre-commit', rulesFrom({ allow: ['Write(./**)'] }, 'cli')).behavior).toBe('ask')
    expect(call('default', '.husky/pre-commit', rulesFrom({ allow: ['Write(./.husky/pre-commit)'] }, 'cli')).behavior).toBe('allow')
    expect(call('bypassPermissions', '.husky/pre-commit', rulesFrom({ allow: ['Write(./.husky/**)'], deny: ['Write(./.husky/**)'] }, 'cli')).behavior).toBe(
      'deny'
    )
    expect(call('acceptEdits', '.husky/pre-commit')).toMatchObject({ suggestedRules: ['Edit(./.husky/pre-commit)'] })
  })
})
