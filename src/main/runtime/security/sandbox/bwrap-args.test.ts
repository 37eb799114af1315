import { describe, expect, it } from 'vitest'
import { bwrapArguments, bwrapMounts, mountsOfWrappedCommand, shellWords } from './bwrap-args'

describe('reading back what a wrap mounts', () => {
  it('reads the words sandbox-runtime quotes: bare, single-quoted, a quote inside, up to --', () => {
    expect(shellWords(`bwrap --setenv A 'x y' --ro-bind /dev/null '/p/it'"'"'s' -- /bin/bash -c 'echo -- hi'`)).toEqual([
      'bwrap',
      '--setenv',
      'A',
      'x y',
      '--ro-bind',
      '/dev/null',
      "/p/it's"
    ])
    expect(shellWords(`a "b \\"c\\" d" e\\ f`)).toEqual(['a', 'b "c" d', 'e f'])
    expect(shellWords(`a 'unterminated`)).toBeNull()
    expect(shellWords(`a; rm -rf /`)).toBeNull()
  })

  it('lists the mounts that make their destination, skipping other options with their values', () => {
    const args = [
      '--new-session',
      '--setenv',
      'X',
      '--ro-bind',
      '--ro-bind',
      '/',
      '/',
      '--bind',
      '/p',
      '/p',
      '--ro-bind',
      '/dev/null',
      '/p/.bashrc',
      '--tmpfs',
      '/t',
      '--dev',
      '/dev',
      '--unshare-pid',
      '--proc',
      '/proc'
    ]
    expect(bwrapMounts(args)).toEqual([
      { op: '--ro-bind', source: '/', dest: '/' },
      { op: '--bind', source: '/p', dest: '/p' },
      { op: '--ro-bind', source: '/dev/null', dest: '/p/.bashrc' },
      { op: '--tmpfs', dest: '/t' }
    ])
    expect(bwrapMounts(['--frobnicate', '/x'])).toBeNull()
    expect(bwrapMounts(['--ro-bind', '/dev/null'])).toBeNull()
  })

  it('puts the profile file of a long line back where --args stood', () => {
    const line = `/bin/sh -c 'exec 9<"$1" && shift && exec "$@"' srt-args /proc/1/fd/20 bwrap --new-session --args 9 --dev /dev -- /usr/bin/bash -c true`
    const profile = ['--ro-bind', '/dev/null', '/p/.mcp.json', '--bind', '/p', '/p', '--ro-bind', '/e', '/p/é'].map((w) => w + '\0').join('')
    const read = (p: string) => (p === '/proc/1/fd/20' ? Buffer.from(profile, 'utf8').toString('latin1') : '')
    expect(bwrapArguments(line, read)).toEqual([
      '--new-session',
      '--ro-bind',
      '/dev/null',
      '/p/.mcp.json',
      '--bind',
      '/p',
      '/p',
      '--ro-bind',
      '/e',
      '/p/é',
      '--dev',
      '/dev'
    ])
    expect(mountsOfWrappedCommand(line, read)?.map((m) => m.dest)).toEqual(['/p/.mcp.json', '/p', '/p/é'])
    expect(
      mountsOfWrappedCommand(line, () => {
        throw new Error('gone')
      })
    ).toBeNull()
  })
})
