import { describe, expect, it } from 'vitest'
import { judgeConfig, parseConfigListing } from './git-config-guard'

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
})
