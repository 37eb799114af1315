// Shared by the trust and leak attack files: a marker folder that hostile commands write into (so "no
// process ran" is a checkable fact), a snapshot of a project's files (so "nothing changed" is too), and a
// scripted model that tries everything a session does: a read-only call (hooks), a Bash call (allow rules,
// modes), a write outside the project (extra folders), a subagent (agent files' hooks, servers and modes).
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, lstatSync, readlinkSync } from 'node:fs'
import { join, relative } from 'node:path'
import { reply, scriptByAgent, type Respond } from '../../src/main/runtime/model/scripted'

export const MAIN = 'lead agent in Fanout'

/** Every file under `dir` (links as their target text, .git left out) with a hash of its content. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === '.git') continue
      const p = join(d, name)
      const st = lstatSync(p)
      if (st.isSymbolicLink()) out[relative(dir, p)] = `-> ${readlinkSync(p)}`
      else if (st.isDirectory()) walk(p)
      else if (st.isFile()) out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex')
      else out[relative(dir, p)] = 'special'
    }
  }
  walk(dir)
  return out
}

/** A folder that hostile commands touch files in: empty means nothing ran. */
export function markerDir(root: string): { dir: string; touch: (name: string) => string; ran: () => string[] } {
  const dir = join(root, 'markers')
  mkdirSync(dir, { recursive: true })
  return { dir, touch: (name) => `touch ${JSON.stringify(join(dir, name))}`, ran: () => (existsSync(dir) ? readdirSync(dir) : []) }
}

/** The main agent reads a file, runs a Bash command, writes outside the project and starts the helper agent. */
export function everythingScript(opts: { bash: string; outsideFile: string }): Respond {
  return scriptByAgent([
    { match: 'You are the helper', turns: [reply.toolUse('Bash', { command: `${opts.bash}-helper` }), (req) => reply.text(`helper saw: ${req.toolResults[0]?.content.slice(0, 80)}`)] },
    {
      match: MAIN,
      turns: [
        reply.toolUses([
          { name: 'Read', input: { file_path: 'README.md' } },
          { name: 'Bash', input: { command: opts.bash } },
          { name: 'Write', input: { file_path: opts.outsideFile, content: 'escaped' } },
          { name: 'Agent', input: { description: 'Help', prompt: 'Help out.', subagent_type: 'helper' } }
        ]),
        reply.text('done')
      ]
    }
  ])
}

export const HELPER_AGENT = '---\nname: helper\ndescription: Helps.\n---\nYou are the helper.\n'
