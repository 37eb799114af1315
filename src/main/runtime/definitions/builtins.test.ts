import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultBuiltinDir, defaultDocsDir, fanoutRoot, findFanoutRoot } from './builtins'
import { formatToolsForListing } from './listing'
import { resolveAgentTools } from './resolve-tools'
import { loadAgents } from './sources'
import { CORE_TOOLS } from './testing/tools'

const TOOLS = [...CORE_TOOLS, 'NotebookEdit', 'WebFetch', 'WebSearch', 'TodoWrite', 'ExitPlanMode', 'AskUserQuestion']

describe('built-in agents', () => {
  it('finds the repository from the source tree and from the bundle locations', () => {
    const root = fanoutRoot()
    expect(existsSync(join(root, 'package.json'))).toBe(true)
    expect(findFanoutRoot(join(root, 'out/cli'))).toBe(root)
    expect(findFanoutRoot(join(root, 'out/main'))).toBe(root)
    expect(findFanoutRoot('/')).toBeUndefined()
    expect(defaultBuiltinDir()).toBe(join(root, 'agents'))
  })

  it('load cleanly through the same parser, in a stable order', async () => {
    const { agents, diagnostics } = await loadAgents({ cwd: '/nonexistent-project', home: '/nonexistent-home' })
    expect(diagnostics).toEqual([])
    expect(agents.map((a) => a.definition.agentType)).toEqual(['general-purpose', 'Explore', 'Plan', 'Bash', 'fanout-guide', 'verifier'])
    expect(agents.every((a) => a.definition.source === 'built-in')).toBe(true)
  })

  it('have the tools the issue asks for', async () => {
    const { byType } = await loadAgents({ cwd: '/nonexistent-project', home: '/nonexistent-home' })
    const tools = (name: string) => resolveAgentTools(byType.get(name)!.definition, TOOLS, { isBuiltIn: true, isBackground: false }).resolvedTools
    expect(tools('general-purpose')).toEqual(['Agent', 'Bash', 'Read', 'Write', 'Edit', 'Glob', 'Grep', 'NotebookEdit', 'WebFetch', 'WebSearch', 'TodoWrite'])
    for (const readOnly of ['Explore', 'Plan']) {
      expect(tools(readOnly)).toEqual(['Bash', 'Read', 'Glob', 'Grep', 'WebFetch', 'WebSearch', 'TodoWrite'])
      expect(byType.get(readOnly)!.definition.omitClaudeMd).toBe(true)
    }
    expect(byType.get('Plan')!.definition.model).toBe('inherit')
    expect(byType.get('Explore')!.definition.whenToUse).toMatch(/quick.*medium.*very thorough/s)
    expect(tools('Bash')).toEqual(['Bash'])
    expect(tools('fanout-guide')).toEqual(['Read', 'Glob', 'Grep'])
    // Coordinator mode's verifier checks work without changing it: read-only tools plus Bash to run checks.
    expect(tools('verifier')).toEqual(['Read', 'Glob', 'Grep', 'Bash'])
    expect(formatToolsForListing(byType.get('Explore')!.definition)).toBe('All tools except Agent, Edit, Write, NotebookEdit, ExitPlanMode')
  })

  it('point the guide at the bundled docs, which exist', async () => {
    const { byType } = await loadAgents({ cwd: '/nonexistent-project', home: '/nonexistent-home' })
    const prompt = byType.get('fanout-guide')!.definition.systemPrompt
    expect(prompt).toContain(defaultDocsDir())
    expect(prompt).not.toContain('{{')
    expect(existsSync(join(defaultDocsDir(), 'index.md'))).toBe(true)
    for (const page of ['getting-started.md', 'agent-files.md', 'cli.md', 'app.md', 'built-in-agents.md'])
      expect(existsSync(join(defaultDocsDir(), page)), page).toBe(true)
  })
})
