import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PathPolicy } from '../security/path-policy'
import { makeTempDir, writeTree } from '../tools/test-kit'
import { commandVariants, matchBashPattern, parseBashCommand, shellWords } from './bash-command'
import { isReadOnlyBashCommand } from './bash-read-only'

describe('parseBashCommand', () => {
  it('splits on && || ; | & and newlines, but not inside quotes', () => {
    expect(parseBashCommand('git add . && git commit -m "a && b; c" || echo fail; ls | wc -l & sleep 1\npwd')).toEqual({
      segments: ['git add .', 'git commit -m "a && b; c"', 'echo fail', 'ls', 'wc -l', 'sleep 1', 'pwd'],
      nested: [],
      unsure: []
    })
    expect(parseBashCommand("echo 'x | y' \\; z").segments).toEqual(["echo 'x | y' \\; z"])
  })

  it('drops harmless redirections and flags redirection into files', () => {
    expect(parseBashCommand('npm test 2>&1 | tail -5').segments).toEqual(['npm test', 'tail -5'])
    expect(parseBashCommand('npm test >/dev/null 2>/dev/null').segments).toEqual(['npm test'])
    expect(parseBashCommand('npm test &>/dev/null').unsure).toEqual([])
    expect(parseBashCommand('npm test > out.txt').unsure).toEqual(['output redirection to out.txt'])
    expect(parseBashCommand('cat <<EOF\nhi\nEOF').unsure).toContain('heredoc or here-string')
  })

  it('finds commands hidden in substitutions and shell strings, and marks them unsure', () => {
    const sub = parseBashCommand('echo "$(rm -rf build)" `whoami`')
    expect(sub.unsure).toEqual(['command substitution'])
    expect(sub.nested).toEqual(['rm -rf build', 'whoami'])
    const shell = parseBashCommand(`bash -c 'git push --force && echo ok'`)
    expect(shell.nested).toEqual(['git push --force', 'echo ok'])
    expect(shell.unsure).toContain('a command string run by a shell')
    expect(parseBashCommand('(cd sub && make)').unsure).toContain('subshell or command group')
  })

  it('sees through env assignments and wrappers for deny matching', () => {
    expect(commandVariants('FOO=1 sudo -E rm -rf /')).toContain('rm -rf /')
    expect(commandVariants('timeout 10 npm test')).toContain('npm test')
  })

  it('splits words like the shell and refuses to guess at expansions', () => {
    expect(shellWords(`git commit -m "two words" 'x'y`)).toEqual(['git', 'commit', '-m', 'two words', 'xy'])
    expect(shellWords('cat $FILE')).toBeNull()
    expect(shellWords("echo '$literal'")).toEqual(['echo', '$literal'])
  })
})

describe('matchBashPattern', () => {
  it.each([
    ['npm run test:*', 'npm run test', true],
    ['npm run test:*', 'npm run test -- --watch', true],
    ['npm run test:*', 'npm run testx', false],
    ['git:*', 'git status', true],
    ['git:*', 'gitk', false],
    ['npm run build', 'npm run build', true],
    ['npm run build', 'npm run build --prod', false],
    ['git * main', 'git push origin main', true],
    ['git * main', 'git push origin dev', false],
    ['ls *', 'ls', true],
    ['ls *', 'ls -la', true],
    ['ls *', 'lsof', false],
    ['* --version', 'node --version', true]
  ])('%s vs %s → %s', (pattern, command, expected) => {
    expect(matchBashPattern(pattern, command)).toBe(expected)
  })
})

describe('isReadOnlyBashCommand', () => {
  let dir: { dir: string; cleanup: () => void }
  let policy: PathPolicy
  beforeAll(() => {
    dir = makeTempDir('fanout-ro-')
    writeTree(dir.dir, { 'src/a.ts': '', 'in.txt': 'x' })
    policy = new PathPolicy({ cwd: dir.dir, home: '/nonexistent-home' })
  })
  afterAll(() => dir.cleanup())

  it.each([
    ['ls -la src', true],
    ['git status && git diff HEAD~1 -- src', true],
    ['git log --oneline | head -20', true],
    ['grep -rn TODO src | wc -l', true],
    ['find . -name "*.ts"', true],
    ['find . -name "*.tmp" -delete', false],
    ['find . -exec rm {} \\;', false],
    ['cat /etc/passwd', false],
    ['cat ~/.ssh/id_rsa', false],
    ['cat ../other/file', false],
    ['cat $HOME/x', false],
    ['ls > listing.txt', false],
    ['git branch -D main', false],
    ['git -c core.pager=evil log', false],
    ['git diff --output=patch.diff', false],
    ['sort -o out.txt in.txt', false],
    ['npm test', false],
    ['rg --pre ./script foo', false]
  ])('%s → %s', (command, expected) => {
    expect(isReadOnlyBashCommand(command, policy)).toBe(expected)
  })
})
