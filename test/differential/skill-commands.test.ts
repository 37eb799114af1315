// Differential: the Skill tool offers command files to the model, as Claude Code's does. A project with two
// command files the model may call and one it may not (`disable-model-invocation: true`); the model calls one
// with arguments. Compared: which of the three names the model is offered (Claude Code lists them in a system
// reminder, Fanout in the Skill tool's description: the words differ, the entries `- name: description` are
// the same) and that the command's text, its arguments filled in, reaches the model after the call.
import { describe, expect, it } from 'vitest'
import { reply, type ParsedRequest } from '../../src/main/runtime/model/scripted'
import { claudeCode } from './claude-code'
import { conversation, requestText, runBothSides, type SideResult } from './harness'

const cc = claudeCode()

function respond(req: ParsedRequest) {
  if (conversation(req).includes('SKILL TASK') && req.turn === 0) return reply.toolUse('Skill', { skill: 'deploy', args: 'prod' })
  return reply.text('done')
}

const files = {
  '.claude/commands/deploy.md': '---\ndescription: Deploy the app\n---\nDEPLOY-BODY to $ARGUMENTS',
  '.claude/commands/nodesc.md': 'Plain first line\nmore',
  '.claude/commands/secret.md': '---\ndescription: Hidden one\ndisable-model-invocation: true\n---\nSECRET-BODY'
}

/** The listing entries of the kit's three commands the first request offers. */
const offered = (r: SideResult) =>
  ['deploy: Deploy the app', 'nodesc: Plain first line', 'secret: Hidden one'].filter((entry) => requestText(r.requests[0]).includes(`- ${entry}`))

describe.skipIf(!cc.path)(`the Skill tool and command files${cc.skip ? ` (skipped: ${cc.skip})` : ''}`, () => {
  let claude!: SideResult
  let fanout!: SideResult
  runBothSides({ files, respond, prompt: 'SKILL TASK', args: ['--output-format', 'json'] }, (a, b) => {
    claude = a
    fanout = b
  })

  it('offers the same command files (not the one the model may not call)', () => {
    expect(offered(claude)).toEqual(['deploy: Deploy the app', 'nodesc: Plain first line'])
    expect(offered(fanout)).toEqual(offered(claude))
  })

  it("a call sends the command's text with its arguments to the model", () => {
    for (const r of [claude, fanout]) expect(conversation(r.requests[1])).toContain('DEPLOY-BODY to prod')
  })
})
