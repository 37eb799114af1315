// The `trust.*` calls: what a folder brings that would run or grant by itself, and the person's answer.
// An answer is recorded for exactly the list the person saw, pushed to every window, and applied at once to
// the sessions working in that folder (an approved server starts for their next agent; a declined one stops).
import type { CallHandler } from '../../../shared/call-handlers'
import { resolve } from 'node:path'
import { HostCallError } from '../../../shared/host-call-error'
import { answerTrust, checkFolderTrust, folderKey } from '../trust'
import type { HostListeners } from './host-listeners'
import type { LiveSessions } from './live-sessions'
import type { SessionFactory } from './session-factory'
import type { AgentSessionOptions } from '../orchestration'
import { requireFolder } from './folder-check'
import { errorMessage } from '../../../shared/error-message'

export interface TrustCallsOptions {
  dataDir: string
  home: string
  env: Record<string, string | undefined>
  factory: SessionFactory
  live: LiveSessions
  listeners: HostListeners
  agentSources?: AgentSessionOptions['agentSources']
  managedSettingsFile?: string | null
}

export class TrustCalls {
  constructor(private readonly o: TrustCallsOptions) {}

  private async check(cwd: string) {
    const dir = await requireFolder(cwd)
    const config = await this.o.factory.config()
    return checkFolderTrust({
      cwd: dir,
      home: this.o.home,
      dataDir: this.o.dataDir,
      env: this.o.env,
      ...(this.o.managedSettingsFile !== undefined ? { managedFile: this.o.managedSettingsFile } : {}),
      ...(this.o.agentSources ? { agentSources: this.o.agentSources } : {}),
      ...(config.settings.mcpServers ? { fanoutServers: config.settings.mcpServers } : {})
    })
  }

  get: CallHandler<'trust.get'> = async ({ cwd }) => ({ trust: await this.check(cwd) })

  answer: CallHandler<'trust.answer'> = async ({ cwd, decision, hash }) => {
    const before = await this.check(cwd)
    if (before.state === 'none') throw new HostCallError('conflict', 'This folder brings nothing that runs by itself any more, so there is nothing to answer.')
    await answerTrust(this.o.dataDir, before, decision, hash)
    // Sessions working here apply the answer now: approved servers and hooks for their next agent.
    const key = folderKey(resolve(cwd))
    await Promise.all(
      this.o.live
        .all()
        .filter((l) => folderKey(l.session.options.trustFolder ?? l.session.cwd) === key)
        .map((l) => l.session.reload().catch((err) => console.error(`fanout: applying the folder's approval failed: ${errorMessage(err)}`)))
    )
    const trust = await this.check(cwd)
    this.o.listeners.notify({ type: 'trust_changed', trust })
    return { trust }
  }
}
