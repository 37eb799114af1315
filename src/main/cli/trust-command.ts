// `fanout trust [show|allow|deny|forget] [--cwd DIR] [--json]`: what a folder brings that runs or grants by
// itself (its .mcp.json servers, hooks and pre-approved permissions, its agent files' hooks and servers),
// and the person's answer for it, from the command line: the same answers the app records, in the same data
// folder, so a folder approved here runs its servers in the app and in `fanout run` too.
import { stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { FolderTrust } from '../../shared/trust'
import { loadRuntimeConfig } from '../runtime/setup'
import { answerTrust, checkFolderTrust, forgetFolder } from '../runtime/trust'
import { itemLine } from '../runtime/trust/wording'
import { errorMessage } from '../../shared/error-message'

export const TRUST_USAGE = `Usage:
  fanout trust [show] [--cwd DIR] [--json]   what the folder brings that runs by itself, and your answers
  fanout trust allow [--cwd DIR]             approve it as it is now (a later change waits again)
  fanout trust deny [--cwd DIR]              decline it: sessions here run without it, and do not ask again
  fanout trust forget [--cwd DIR]            forget your answer: everything waits again
`

const STATE_TEXT: Record<FolderTrust['state'], string> = {
  none: 'brings nothing that runs by itself.',
  waiting: 'brings things that wait for your approval; until then sessions here run without them.',
  trusted: 'is approved: what it brings runs.',
  declined: 'is declined: sessions here run without what it brings.'
}

function show(trust: FolderTrust): string {
  const lines = [`${trust.folder} ${STATE_TEXT[trust.state]}`]
  for (const i of trust.items) {
    const state =
      i.state === 'approved'
        ? `approved${i.by === 'claude-settings' ? ' by Claude Code settings' : ''}`
        : i.state === 'declined'
          ? 'declined'
          : i.changed
            ? 'waiting (changed)'
            : 'waiting'
    lines.push(`  [${state}] ${itemLine(i)}`)
    if (i.detail) lines.push(`      ${i.detail}`)
  }
  for (const n of trust.notRun) lines.push(`  [never run by Fanout] ${n.setting} (${n.file}): ${n.command}`)
  for (const p of trust.problems) lines.push(`  problem: ${p}`)
  return `${lines.join('\n')}\n`
}

export async function trustCommand(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(TRUST_USAGE)
    return 0
  }
  const [first, ...rest] = argv
  const sub = first && !first.startsWith('-') ? first : 'show'
  const args = first && !first.startsWith('-') ? rest : argv
  if (!['show', 'allow', 'deny', 'forget'].includes(sub)) {
    process.stderr.write(`fanout trust: unknown action '${sub}'.\n\n${TRUST_USAGE}`)
    return 2
  }
  let values: { cwd?: string; json?: boolean }
  try {
    values = parseArgs({ args, options: { cwd: { type: 'string' }, json: { type: 'boolean' } }, strict: true }).values
  } catch (err) {
    process.stderr.write(`fanout trust: ${errorMessage(err)}\n\n${TRUST_USAGE}`)
    return 2
  }
  const cwd = resolve(values.cwd ?? process.cwd())
  if (!(await stat(cwd).catch(() => null))?.isDirectory()) {
    process.stderr.write(`fanout trust: ${cwd} is not a folder.\n`)
    return 2
  }
  const config = await loadRuntimeConfig()
  const check = () =>
    checkFolderTrust({ cwd, home: homedir(), dataDir: config.dataDir, ...(config.settings.mcpServers ? { fanoutServers: config.settings.mcpServers } : {}) })
  if (sub === 'forget') {
    const forgot = await forgetFolder(config.dataDir, cwd)
    process.stdout.write(forgot ? `Forgot your answer for ${cwd}: what it brings waits for approval again.\n` : `There was no answer for ${cwd} to forget.\n`)
    return 0
  }
  const trust = await check()
  if (sub === 'show') {
    process.stdout.write(values.json ? `${JSON.stringify(trust, null, 2)}\n` : show(trust))
    return 0
  }
  if (trust.state === 'none') {
    process.stdout.write(`${cwd} ${STATE_TEXT.none} Nothing to ${sub}.\n`)
    return 0
  }
  await answerTrust(config.dataDir, trust, sub === 'allow' ? 'trust' : 'decline', trust.hash)
  process.stdout.write(show(await check()))
  return 0
}
