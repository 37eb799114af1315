import { describe, expect, it } from 'vitest'
import { assertSafeId, resolveDataDir, transcriptPath } from './data-dir'

describe('resolveDataDir', () => {
  const home = '/home/ann'
  it('uses FANOUT_DATA_DIR first, resolved against the cwd', () => {
    expect(resolveDataDir({ FANOUT_DATA_DIR: '/data/f', XDG_DATA_HOME: '/x' }, { platform: 'linux', homedir: home })).toBe('/data/f')
    expect(resolveDataDir({ FANOUT_DATA_DIR: 'rel' }, { platform: 'linux', homedir: home, cwd: '/proj' })).toBe('/proj/rel')
  })
  it('follows XDG on Linux, ignoring a relative XDG_DATA_HOME as the spec says', () => {
    expect(resolveDataDir({ XDG_DATA_HOME: '/xdg' }, { platform: 'linux', homedir: home })).toBe('/xdg/fanout')
    expect(resolveDataDir({ XDG_DATA_HOME: 'relative' }, { platform: 'linux', homedir: home })).toBe('/home/ann/.local/share/fanout')
    expect(resolveDataDir({}, { platform: 'linux', homedir: home })).toBe('/home/ann/.local/share/fanout')
  })
  it('uses Application Support on macOS and %APPDATA% on Windows', () => {
    expect(resolveDataDir({}, { platform: 'darwin', homedir: '/Users/ann' })).toBe('/Users/ann/Library/Application Support/Fanout')
    expect(resolveDataDir({ APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, { platform: 'win32', homedir: 'C:\\Users\\ann' })).toBe(
      'C:\\Users\\ann\\AppData\\Roaming\\Fanout'
    )
    expect(resolveDataDir({}, { platform: 'win32', homedir: 'C:\\Users\\ann' })).toBe('C:\\Users\\ann\\AppData\\Roaming\\Fanout')
  })
})

describe('ids in paths', () => {
  it('accepts ordinary ids and refuses ones that could leave their folder', () => {
    expect(transcriptPath('/d', 's-1', 'agent_2.x')).toBe('/d/sessions/s-1/agents/agent_2.x.jsonl')
    for (const bad of ['..', '../x', 'a/b', 'a\\b', '', '.hidden', '-x', 'a b', 'x'.repeat(129)]) {
      expect(() => assertSafeId(bad, 'agent id')).toThrow(/Invalid agent id/)
    }
    expect(() => transcriptPath('/d', '../etc', 'a')).toThrow(/Invalid session id "..\/etc"/)
  })
})

describe('checkDataDirWritable', () => {
  it('passes for a folder it can make, and says in one line which path is in the way and why', async () => {
    const { mkdtempSync, writeFileSync, mkdirSync, chmodSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { checkDataDirWritable } = await import('./data-dir')
    const root = mkdtempSync(join(tmpdir(), 'fanout-dd-'))
    await checkDataDirWritable(join(root, 'fresh'))
    const blocked = join(root, 'blocked')
    mkdirSync(blocked)
    writeFileSync(join(blocked, 'sessions'), 'not a folder')
    await expect(checkDataDirWritable(blocked)).rejects.toThrow(
      `Cannot record sessions in the data folder ${blocked}: ${join(blocked, 'sessions')} is a file, not a folder. Fix that, or set FANOUT_DATA_DIR to a folder you can write to.`
    )
    const parentIsFile = join(root, 'file')
    writeFileSync(parentIsFile, '')
    await expect(checkDataDirWritable(join(parentIsFile, 'data'))).rejects.toThrow(`${parentIsFile} is a file, not a folder`)
    if (process.getuid?.() !== 0) {
      const locked = join(root, 'locked')
      mkdirSync(join(locked, 'sessions'), { recursive: true })
      chmodSync(join(locked, 'sessions'), 0o500)
      await expect(checkDataDirWritable(locked)).rejects.toThrow(`no permission to write in ${join(locked, 'sessions')}`)
      chmodSync(join(locked, 'sessions'), 0o700)
    }
  })
})
