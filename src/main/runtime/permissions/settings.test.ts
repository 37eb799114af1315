import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDirs, writeTree } from '../tools/test-kit'
import { loadPermissionSettings } from './settings'

let project: string
let home: string
useTempDirs('each', ['fanout-settings-project-', 'fanout-settings-home-'], (p, h) => {
  project = p
  home = h
})

const load = () => loadPermissionSettings({ cwd: project, home, managedFile: null })
const json = (v: unknown) => JSON.stringify(v, null, 2)

describe('loadPermissionSettings', () => {
  it('merges user, project and local rules, remembering where each came from', () => {
    writeTree(home, { '.claude/settings.json': json({ permissions: { allow: ['Bash(git:*)'], deny: ['Read(~/.ssh/**)'] } }) })
    writeTree(project, {
      '.claude/settings.json': json({ permissions: { allow: ['Bash(npm run test:*)'], ask: ['Bash(git push:*)'], defaultMode: 'acceptEdits' } }),
      '.claude/settings.local.json': json({ permissions: { deny: ['Edit(secrets/**)'], defaultMode: 'plan' } })
    })
    const s = load()
    expect(s.diagnostics).toEqual([])
    expect(s.files).toEqual([join(home, '.claude/settings.json'), join(project, '.claude/settings.json'), join(project, '.claude/settings.local.json')])
    expect(s.rules.allow.map((r) => [r.raw, r.source])).toEqual([
      ['Bash(git:*)', 'user'],
      ['Bash(npm run test:*)', 'project']
    ])
    expect(s.rules.deny.map((r) => `${r.source}:${r.toolName}:${r.content}`)).toEqual(['user:Read:~/.ssh/**', 'local:Edit:secrets/**'])
    expect(s.rules.ask).toHaveLength(1)
    expect(s.rules.deny[1].root).toBe(project)
    expect(s.defaultMode).toBe('plan') // the most specific file wins
  })

  it('reports invalid JSON with its line and keeps the other files', () => {
    writeTree(project, {
      '.claude/settings.json': '{\n  "permissions": {\n    "allow": ["Bash(ls:*)",]\n  }\n}\n',
      '.claude/settings.local.json': json({ permissions: { allow: ['Read'] } })
    })
    const s = load()
    expect(s.rules.allow.map((r) => r.raw)).toEqual(['Read'])
    expect(s.diagnostics).toHaveLength(1)
    expect(s.diagnostics[0]).toMatchObject({ file: join(project, '.claude/settings.json'), line: 3, severity: 'error', code: 'settings-invalid-json' })
    expect(s.diagnostics[0].message).toContain('none of its permission rules apply')
  })

  it('explains each malformed entry and keeps the good ones; a broken deny rule still denies its tool', () => {
    writeTree(project, {
      '.claude/settings.json': json({
        permissions: {
          allow: ['Bash(npm test:*)', 42, 'Bash(unclosed'],
          deny: ['Bash(git push'],
          ask: 'Bash',
          defaultMode: 'yolo',
          additionalDirectories: ['../shared', '~/notes']
        }
      })
    })
    const s = load()
    expect(s.rules.allow.map((r) => r.raw)).toEqual(['Bash(npm test:*)'])
    expect(s.rules.deny).toMatchObject([{ toolName: 'Bash', raw: 'Bash(git push' }])
    expect(s.rules.deny[0].content).toBeUndefined()
    const byCode = Object.fromEntries(s.diagnostics.map((d) => [d.code + (d.message.includes('deny') ? ':deny' : ''), d]))
    expect(byCode['permission-rule-not-string'].message).toContain('42 is ignored')
    expect(byCode['permission-rule-malformed'].message).toContain('missing the closing ")"')
    expect(byCode['permission-rule-malformed:deny'].message).toContain('applies to every Bash call')
    expect(byCode['permission-rule-malformed:deny'].line).toBe(9)
    expect(byCode['permission-list-not-array'].message).toContain('permissions.ask')
    expect(byCode['permission-mode-unknown']).toMatchObject({ severity: 'warning' })
    expect(s.defaultMode).toBeUndefined()
    expect(s.additionalDirectories).toEqual([join(project, '..', 'shared'), join(home, 'notes')])
  })

  it('tolerates no settings files at all', () => {
    expect(load()).toMatchObject({ files: [], diagnostics: [], additionalDirectories: [] })
  })

  it('reads a settings file once when the project is the home directory', () => {
    writeTree(home, { '.claude/settings.json': json({ permissions: { allow: ['Read'] } }) })
    const s = loadPermissionSettings({ cwd: home, home, managedFile: null })
    expect(s.rules.allow).toHaveLength(1)
    expect(s.files).toHaveLength(1)
  })

  it('applies managed settings when present', () => {
    writeTree(home, { 'managed.json': json({ permissions: { deny: ['WebFetch'] } }) })
    const s = loadPermissionSettings({ cwd: project, home, managedFile: join(home, 'managed.json') })
    expect(s.rules.deny.map((r) => [r.raw, r.source])).toEqual([['WebFetch', 'managed']])
  })
})

describe('jsonErrorOffset', () => {
  it('finds the first syntax error, or -1 for valid JSON', async () => {
    const { jsonErrorOffset } = await import('./json-position')
    expect(jsonErrorOffset('{"a": [1, 2, {"b": null}], "c": "x\\"y"}')).toBe(-1)
    expect(jsonErrorOffset('[1,]')).toBe(3)
    expect(jsonErrorOffset('{"a" 1}')).toBe(5)
    expect(jsonErrorOffset('{"a": tru}')).toBe(6)
    expect(jsonErrorOffset('{"a": 1')).toBe(7)
    expect(jsonErrorOffset('{} x')).toBe(3)
  })
})
