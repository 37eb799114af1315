import { afterEach, describe, expect, it } from 'vitest'
import { clearSecrets, REDACTED, redactText } from '../../../shared/redact'
import { useTempDirs, writeTree } from '../tools/test-kit'
import { registerCredentialFileSecrets } from './credential-files'

let home: string
useTempDirs('each', ['fanout-cred-home-'], (h) => {
  home = h
})
afterEach(() => clearSecrets())

describe("Claude Code's credential files", () => {
  it('what they hold is redacted, reversed too; other values and a broken file are left alone', () => {
    const key = 'sk-ant-api03-PRIMARYkey0123456789abcdefXYZ'
    const access = 'sk-ant-oat01-ACCESStoken9876543210zyxwv'
    writeTree(home, {
      '.claude.json': JSON.stringify({ primaryApiKey: key, projects: { '/p': { allowedTools: [] } }, userID: 'not-a-secret-user-id' }),
      '.claude/.credentials.json': JSON.stringify({ claudeAiOauth: { accessToken: access, refreshToken: 'refresh-token-value-123456', expiresAt: 1 } }),
      '.config/claude/.credentials.json': '{ not json'
    })
    registerCredentialFileSecrets(home)
    expect(redactText(`a ${key} b`)).toBe(`a ${REDACTED} b`)
    expect(redactText([...access].reverse().join(''))).toBe(REDACTED)
    expect(redactText('refresh-token-value-123456')).toBe(REDACTED)
    expect(redactText('not-a-secret-user-id')).toBe('not-a-secret-user-id')
  })
})
