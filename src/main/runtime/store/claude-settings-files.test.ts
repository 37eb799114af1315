import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { claudeSettingsFiles } from './claude-settings-files'

describe("Claude Code's settings files", () => {
  it('lists user, project, local and managed, lowest precedence first, each with the folder it is read against', () => {
    expect(claudeSettingsFiles({ cwd: '/p', home: '/h', managedFile: '/etc/m/managed.json' })).toEqual([
      { file: join('/h', '.claude', 'settings.json'), level: 'user', root: '/h' },
      { file: join('/p', '.claude', 'settings.json'), level: 'project', root: '/p' },
      { file: join('/p', '.claude', 'settings.local.json'), level: 'local', root: '/p' },
      { file: '/etc/m/managed.json', level: 'managed', root: '/etc/m' }
    ])
  })

  it("working in the home folder lists its settings.json once, as the user's; null skips the managed file", () => {
    expect(claudeSettingsFiles({ cwd: '/h/', home: '/h', managedFile: null }).map((f) => f.level)).toEqual(['user', 'local'])
  })
})
