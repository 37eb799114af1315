import { describe, expect, it } from 'vitest'
import { includedFiles, judgeConfig, parseConfigListing } from './git-config-guard'

describe('git config guard', () => {
  it('parses the -z listing (a key without a value, a value with newlines and `=`)', () => {
    const out = 'global\0user.name\nMe\0local\0filter.a=b.clean\nsh -c x=1\ny\0local\0core.bare\0'
    expect(parseConfigListing(out)).toEqual([
      { scope: 'global', key: 'user.name', value: 'Me' },
      { scope: 'local', key: 'filter.a=b.clean', value: 'sh -c x=1\ny' },
      { scope: 'local', key: 'core.bare', value: null }
    ])
  })

  it("overrides the repository's program keys under any driver name, keeps the person's own", () => {
    const v = judgeConfig([
      { scope: 'global', key: 'filter.lfs.clean', value: 'git-lfs clean -- %f' },
      { scope: 'global', key: 'credential.helper', value: 'store' },
      { scope: 'local', key: 'filter.Odd.Name=x.smudge', value: 'evil' },
      { scope: 'local', key: 'diff.pdf.textconv', value: 'evil' },
      { scope: 'worktree', key: 'merge.ours.driver', value: 'evil' },
      { scope: 'local', key: 'credential.https://x.y.helper', value: 'evil' },
      { scope: 'local', key: 'gpg.ssh.program', value: 'evil' },
      { scope: 'local', key: 'pager.log', value: 'evil' },
      { scope: 'local', key: 'core.sshcommand', value: 'evil' },
      { scope: 'local', key: 'user.name', value: 'Repo' },
      { scope: 'local', key: 'core.worktree', value: '../..' }
    ])
    expect(v.overrides).toEqual([
      ['filter.Odd.Name=x.smudge', ''],
      ['diff.pdf.textconv', ''],
      ['merge.ours.driver', ''],
      ['credential.https://x.y.helper', ''],
      ['gpg.ssh.program', ''],
      ['pager.log', 'false'],
      ['core.sshcommand', 'ssh']
    ])
    expect(v.worktreeRedirects).toEqual(['../..'])
  })

  it('reads every file the repository includes, whatever the condition; not the ones the person includes', () => {
    const entries = parseConfigListing(
      [
        'global',
        'file:/home/me/.gitconfig',
        'include.path\nmine.cfg',
        'local',
        'file:.git/config',
        'include.path\nplain.cfg',
        'local',
        'file:.git/config',
        'includeif.onbranch:fanout/**.path\n../up.cfg',
        'local',
        'file:.git/config',
        'includeif.gitdir:**/worktrees/**.path\n~/x.cfg',
        ''
      ].join('\0'),
      true
    )
    expect(entries[1]).toEqual({ scope: 'local', origin: 'file:.git/config', key: 'include.path', value: 'plain.cfg' })
    expect(includedFiles(entries, '/repo', '/home/me')).toEqual(['/repo/.git/plain.cfg', '/repo/up.cfg', '/home/me/x.cfg'])
  })
})
