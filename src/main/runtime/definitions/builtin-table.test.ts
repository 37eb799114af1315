// The build's table of the built-in agents (definitions/builtin-table.ts) must give exactly what parsing the
// files gives, so that `fanout run`, which takes it instead of parsing them, loads the same agents.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { builtinAgentTable } from '../../cli/builtin-agent-table'
import { builtParse } from './builtin-table'
import { builtinPlaceholders, defaultBuiltinDir } from './builtins'
import { parseAgentMarkdown, substitutePlaceholders } from './parse'

describe('the built-in agents table', () => {
  it('holds every built-in file, and gives byte for byte what parsing it gives', async () => {
    const dir = defaultBuiltinDir()
    const table = await builtinAgentTable(dir)
    expect(Object.keys(table).sort()).toEqual(
      readdirSync(dir)
        .filter((f) => f.endsWith('.md'))
        .sort()
    )
    const placeholders = builtinPlaceholders('/opt/fanout/docs')
    for (const rel of Object.keys(table)) {
      const file = join(dir, rel)
      const text = readFileSync(file, 'utf8')
      const parsed = parseAgentMarkdown(text, file, 'built-in', { placeholders })
      const built = builtParse(rel, file, text, placeholders, substitutePlaceholders, table)
      expect(parsed.definition).toBeDefined()
      expect(built).toStrictEqual(parsed)
      expect(JSON.stringify(built)).toBe(JSON.stringify(parsed))
    }
    // The docs folder is filled in at load, where the install is: the table holds the placeholder.
    expect(JSON.stringify(table)).toContain('{{FANOUT_DOCS_DIR}}')
    expect(JSON.stringify(table)).not.toContain('/opt/fanout/docs')
  })

  it('is not used for a file whose text is not what the build parsed, nor for one it does not have', async () => {
    const dir = defaultBuiltinDir()
    const table = await builtinAgentTable(dir)
    const [rel] = Object.keys(table)
    const text = readFileSync(join(dir, rel!), 'utf8')
    expect(builtParse(rel!, join(dir, rel!), `${text}\nEdited.`, {}, substitutePlaceholders, table)).toBeUndefined()
    expect(builtParse('7-new.md', join(dir, '7-new.md'), text, {}, substitutePlaceholders, table)).toBeUndefined()
    expect(builtParse(rel!, join(dir, rel!), text, {}, substitutePlaceholders, undefined)).toBeUndefined()
  })

  it('gives each caller its own copy', async () => {
    const dir = defaultBuiltinDir()
    const table = await builtinAgentTable(dir)
    const [rel] = Object.keys(table)
    const text = readFileSync(join(dir, rel!), 'utf8')
    const first = builtParse(rel!, join(dir, rel!), text, {}, substitutePlaceholders, table)!
    first.definition!.agentType = 'changed'
    first.diagnostics.push({ file: 'x', line: 1, column: 1, severity: 'info', code: 'x', message: 'x' })
    expect(builtParse(rel!, join(dir, rel!), text, {}, substitutePlaceholders, table)).toStrictEqual(parseAgentMarkdown(text, join(dir, rel!), 'built-in', {}))
  })
})
