// The app's side of slash commands: `folder.commands` (the prompt box's `/` menu) lists what a prompt would
// resolve — the folder's and the user's command files, skills, built-ins — and a prompt typed in the app is
// expanded the same way `fanout run -p` expands it.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { expect, it } from 'vitest'
import { reply } from '../model/scripted'
import { folders, host, mainEnded, until } from '../../../../test/support/host'

const write = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
}

/** A host whose model answers `answer` to everything, and `prompt` sent in a new session, run until the main agent ends. */
async function ranPrompt(dirs: ReturnType<typeof folders>, answer: string, prompt: string) {
  const made = await host(() => reply.text(answer), dirs)
  const { sessionId } = await made.h.handlers['session.start']({ prompt, cwd: dirs.cwd })
  await until(() => mainEnded(made.events, sessionId), 'the main agent ends')
  return { ...made, sessionId }
}

it('folder.commands gives name, description, argument hint and source', async () => {
  const dirs = folders()
  write(join(dirs.cwd, '.claude/commands/frontend/component.md'), '---\ndescription: Make a component\nargument-hint: <name>\n---\nC $ARGUMENTS')
  write(join(dirs.home, '.claude/commands/mine.md'), '# Mine\nbody')
  write(join(dirs.cwd, '.claude/skills/greet/SKILL.md'), '---\nname: greet\ndescription: Greets\n---\nG')
  const { h } = await host(null, dirs)
  const { commands } = await h.handlers['folder.commands']({ cwd: dirs.cwd })
  const builtins = commands.filter((c) => c.source === 'builtin')
  expect(builtins.map((c) => c.name)).toContain('cost')
  expect(commands.slice(builtins.length, builtins.length + 3)).toEqual([
    { name: 'mine', description: 'Mine', source: 'user' },
    { name: 'frontend:component', description: 'Make a component', argumentHint: '<name>', source: 'project' },
    { name: 'greet', description: 'Greets', source: 'project' }
  ])
})

it('a command typed in the prompt box reaches the model as Claude Code sends it', async () => {
  const dirs = folders()
  write(join(dirs.cwd, '.claude/commands/review.md'), 'Review $1 then $0')
  const { h, events, server, sessionId } = await ranPrompt(dirs, 'done', '/review a b')
  const first = server!.messageRequests()[0].body as { messages: Array<{ content: Array<{ text: string }> }> }
  const texts = first.messages[0].content.map((b) => b.text)
  expect(texts).toContain('<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>a b</command-args>\n')
  expect(texts).toContain('Review b then a')
  // The person's view shows the command as typed, and the run is labelled by it.
  const start = events.find((e) => e.type === 'agent_start' && e.sessionId === sessionId)
  expect(start?.type === 'agent_start' && start.description).toBe('/review a b')
  const { view } = await h.handlers['sessions.open']({ sessionId })
  const items = view.items[view.rootAgentId!].flatMap((i) => (i.kind === 'user' ? [i.text] : []))
  expect(items).toEqual(['/review a b'])
})

it('a built-in typed in the prompt box is answered in the app, as a card of its own, without a model call', async () => {
  const dirs = folders()
  const { h, events, server, sessionId } = await ranPrompt(dirs, 'done', 'first question')
  const requests = server!.messageRequests().length
  const answer = async (prompt: string) => {
    await h.handlers['session.sendPrompt']({ sessionId, prompt })
    await until(() => events.some((e) => e.type === 'command_output' && e.command === prompt), `the answer to ${prompt}`)
    const e = events.find((x) => x.type === 'command_output' && x.command === prompt)
    return e?.type === 'command_output' ? e.text : ''
  }
  expect(await answer('/cost')).toMatch(/\*\*Estimated cost:\*\* \$0\.\d{4}/)
  expect(await answer('/context')).toContain('## Context Usage')
  expect(await answer('/model')).toMatch(/Current model: `claude-/)
  expect(await answer('/help')).toContain('`/context`')
  expect(await answer('/clear')).toContain('New session')
  expect(server!.messageRequests().length).toBe(requests)
  // Kept with the session: reopened, the conversation shows the cards, and the model never saw them.
  const { view } = await h.handlers['sessions.open']({ sessionId })
  expect(view.items[view.rootAgentId!].flatMap((i) => (i.kind === 'command' ? [i.command] : []))).toEqual(['/cost', '/context', '/model', '/help', '/clear'])
  const { commands } = await h.handlers['folder.commands']({ cwd: dirs.cwd })
  expect(commands.filter((c) => c.source === 'builtin').map((c) => c.name)).toEqual(['compact', 'cost', 'context', 'model', 'help', 'clear'])
})

it("a folder's command file of a built-in's name runs, and the / menu lists it instead", async () => {
  const dirs = folders()
  write(join(dirs.cwd, '.claude/commands/cost.md'), '---\ndescription: Price the plan\n---\nPrice it')
  const { h, events, server } = await ranPrompt(dirs, 'priced', '/cost')
  expect(server!.messageRequests().length).toBe(1)
  expect(events.some((e) => e.type === 'command_output')).toBe(false)
  const { commands } = await h.handlers['folder.commands']({ cwd: dirs.cwd })
  expect(commands.filter((c) => c.name === 'cost')).toEqual([{ name: 'cost', description: 'Price the plan', source: 'project' }])
})
