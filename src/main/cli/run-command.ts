// `fanout run -p PROMPT`: runs the main agent (and every subagent it spawns) to completion, headless.
// Transcripts are recorded like in the app, so a CLI session can be reopened there.
import { join } from 'node:path'
import { saveParseCache, useParseCacheFile } from '../runtime/definitions/parse-cache'
import { effortFromEnv } from '../runtime/model/effort-settings'
import { AgentSession } from '../runtime/orchestration'
import { parseCompactCommand } from '../runtime/orchestration/runs/compact-agent'
import { shutdownSandbox } from '../runtime/security/sandbox/sandbox-runtime'
import { NewerTranscriptError } from '../runtime/store'
import { fullModelId } from '../runtime/model/aliases'
import { createClientFromConfig, loadRuntimeConfig } from '../runtime/setup'
import { answeredRun, resultMessage, type ResultMessage } from './output/result-message'
import { HelpRequested, parseRunArgs, RUN_USAGE, UsageError, type RunArgs } from './run-args'
import { claudeRunOptions, settingsBeforeConfig, type ClaudeRunOptions } from './run-options'
import { RunTally } from './output/run-tally'
import { planPrompt, type PromptPlan } from '../runtime/orchestration'
import type { ContentBlock } from '../../shared/events'
import { StreamJsonWriter } from './output/stream-json'
import { commandNames, streamSession } from './output/stream-session'
import { EXIT_PIPE_CLOSED, pipeOut, type RunOutput } from './output/pipe-out'
import { failedResult, failureLine, markUndone, unfinishedMessage } from './output/undone'
import { compactionLine, problemPrinter, retryLabel } from './output/stderr-lines'
import { watchForStuckRun } from './stuck-run'
import { skippedText } from './trust-text'
import { orphanNote } from './orphan-note'
import { firstRequestSteps } from './first-request'
import { jsonLine, writeJsonLine } from './redacted-output'
import { errorMessage } from '../../shared/error-message'
import type { AgentRunResult } from '../runtime/loop/types'
import { turnBatches } from './turn-batches'

/** `-p "/compact [what to keep]"`: compacts the recorded main agent now; its own result says what happened. */
async function compactNow(session: AgentSession, instructions: string | undefined, format: RunArgs['format'], out: RunOutput): Promise<number> {
  const done = await session.compact(undefined, instructions)
  const n = (x: number) => x.toLocaleString('en-US')
  const line =
    done.status === 'compacted'
      ? `Compacted the conversation: ${n(done.tokensBefore)} → ${n(done.tokensAfter)} tokens.`
      : 'The main agent is working; it compacts before its next request.'
  if (format === 'text') out.write(`${line}\n`)
  else out.json({ type: 'result', result: line, is_error: false, session_id: session.sessionId, ...done })
  return 0
}

export async function runCommand(argv: string[]): Promise<number> {
  const startedAt = Date.now()
  let args: RunArgs
  try {
    args = await parseRunArgs(argv)
  } catch (err) {
    if (err instanceof HelpRequested) {
      process.stdout.write(err.message || RUN_USAGE)
      return 0
    }
    // In Claude Code's words and with its exit status (claude-args.ts).
    if (err instanceof UsageError) {
      process.stderr.write(`${err.message}\n`)
      return 1
    }
    throw err
  }
  const { layers, pass } = settingsBeforeConfig(args)
  const config = await loadRuntimeConfig()
  for (const problem of config.settingsProblems) process.stderr.write(`fanout: settings: ${problem}\n`)
  // Agent files parsed in an earlier run are not parsed again (definitions/parse-cache.ts).
  useParseCacheFile(join(config.dataDir, 'cache', 'agent-files.json'))
  // --fallback-model: the client switches to it when the main model is overloaded (model/client.ts).
  const made = await createClientFromConfig(config, args.fallbackModel ? { client: { fallbackModel: fullModelId(args.fallbackModel, config.aliases) } } : {})
  if ('error' in made) {
    process.stderr.write(`fanout run: ${made.error}\n`)
    return 1
  }
  // The first request's connection is opened while the session is set up (model/client.ts).
  made.client.connect?.()
  let claude: ClaudeRunOptions
  try {
    claude = await claudeRunOptions(args, config, layers, pass)
  } catch (err) {
    if (!(err instanceof UsageError)) throw err
    process.stderr.write(`${err.message}\n`)
    return 1
  }
  for (const note of claude.notes) process.stderr.write(`fanout: ${note}\n`)
  // -c/--continue: the folder's latest session, resumed like --resume's.
  if (claude.resume) args.resume = claude.resume
  const fromEnv = effortFromEnv(process.env)
  if (fromEnv.problem) process.stderr.write(`fanout: ${fromEnv.problem}\n`)
  const effort = args.effort ?? fromEnv.effort
  let tally: RunTally | null = null
  // What could not be written to the data folder (a full disk…): the run's record is incomplete, so it is not a success.
  const writeFailures: string[] = []
  let session: AgentSession
  try {
    const common = {
      client: made.client,
      aliases: config.aliases,
      limits: config.limits,
      context: config.context,
      headless: true,
      owner: 'fanout run',
      onPermissionDenied: (_message: string, toolName: string, _agentId: string, call?: { input: unknown; toolUseId: string }) =>
        tally?.denied(toolName, call?.toolUseId, call?.input),
      ...(effort !== undefined ? { effort } : {}),
      ...(config.settings.defaultEffort ? { defaultEffort: config.settings.defaultEffort } : {}),
      dataDir: config.dataDir,
      onError: (e: Error) => {
        writeFailures.push(e.message)
        process.stderr.write(`fanout: transcript: ${e.message}\n`)
      },
      ...(args.agentsJson ? { agentSources: { cliAgentsJson: args.agentsJson } } : {}),
      ...(args.pluginDirs.length ? { pluginDirs: args.pluginDirs } : {}),
      ...(args.coordinator || config.settings.coordinator ? { coordinator: true } : {}),
      ...(args.teams || config.settings.agentTeams ? { teams: true } : {}),
      ...(args.trustProject ? { trustProject: true } : {}),
      ...claude.options
    }
    session = args.resume
      ? await AgentSession.open({ ...common, sessionId: args.resume, dataDir: config.dataDir })
      : await AgentSession.create({ ...common, cwd: args.cwd })
  } catch (err) {
    // A session a newer Fanout wrote is a run that cannot go on, not a bad command line: it answers in the
    // format asked for, like a resume whose history is lost (nothing of the session was touched).
    if (args.resume && err instanceof NewerTranscriptError) {
      const summary = failedResult(args.resume, new RunTally(''), `cannot resume session ${args.resume}: ${err.message}`)
      if (args.format !== 'text') writeJsonLine(process.stdout, summary)
      process.stderr.write(`fanout run: ${failureLine(summary)}\n`)
      return 1
    }
    process.stderr.write(`fanout run: ${errorMessage(err)}\n`)
    return 1
  }

  let pipeClosed = false
  const out = pipeOut(() => {
    pipeClosed = true
    session.stop(session.mainAgentId, false)
  })
  const permissionMode = claude.permissionMode ?? session.permissionSettings?.defaultMode ?? config.settings.defaultPermissionMode
  for (const note of claude.afterOpen(args.trustProject === true || session.folderTrust?.state === 'trusted')) process.stderr.write(`fanout: ${note}\n`)
  for (const d of session.permissionSettings?.diagnostics ?? []) process.stderr.write(`fanout: ${d.file}:${d.line}:${d.column}: ${d.message}\n`)
  const skipped = session.folderTrust ? skippedText(session.folderTrust, session.cwd) : ''
  if (skipped) process.stderr.write(skipped)
  const compact = parseCompactCommand(args.prompt)
  for (const note of session.settingsNotes) process.stderr.write(`fanout: ${note}\n`)
  // The init line of stream-json lists them; a folder without any costs one directory listing.
  const slashNames = args.format === 'stream-json' ? await commandNames(session) : []
  tally = new RunTally(session.mainAgentId)
  const counted = tally
  const stream = args.format === 'stream-json' ? new StreamJsonWriter(streamSession(session, permissionMode, slashNames), (line) => out.json(line)) : null
  if (stream) session.extensions.keepToolResponses()
  const problems = problemPrinter(session)
  const atFirstRequest = firstRequestSteps(rehearseAnswer, session.mainAgentId)
  session.bus.subscribe((e) => {
    counted.note(e)
    atFirstRequest(e)
    if (stream) stream.note(e)
    else if (args.format === 'events') out.json(e)
    // Retries and problems (an MCP server that did not start, a failing hook, a subagent's failure) go to
    // stderr in every format: stdout stays the answer or the machine-readable stream.
    problems(e)
    // A compaction takes a model call and changes what the agent remembers: say so (a /compact run says it on stdout).
    if (e.type === 'compaction' && !(compact && e.agentId === session.mainAgentId))
      process.stderr.write(`fanout: ${retryLabel(session, e.agentId)}${compactionLine(e)}\n`)
  })
  let interrupted = false
  const onSigint = () => {
    if (interrupted) process.exit(130)
    interrupted = true
    process.stderr.write('\nfanout: stopping every agent (press Ctrl-C again to quit at once)\n')
    session.stop()
  }
  process.on('SIGINT', onSigint)
  // Results already printed (a multi-turn run prints each turn's as it ends).
  const printed = new WeakSet<ResultMessage>()
  // A run stuck for good still answers in the format asked for: a failure, with the reason.
  const stuck = watchForStuckRun(session, (reason) => void printResult(failedSummary(reason)))

  for (const note of session.openNotes) process.stderr.write(`fanout: ${note}\n`)
  // Off the critical path (a quiet moment after the first model response): worktrees a crash left behind.
  const leftovers = orphanNote(session, (line) => process.stderr.write(line))
  let code = 0
  let summary: ResultMessage | null = null
  try {
    // Through the same close below: the session's lock is let go and what it wrote is saved.
    if (compact) code = await compactNow(session, compact.instructions, args.format, out)
    // A retry sends the failed request again; stream-json turns are planned one by one as they arrive.
    else if (args.retry !== undefined || args.turns) summary = await runToTheEnd('', {})
    else {
      const plan = await planPrompt(session, args.prompt, {
        ...(args.agent ? { agent: args.agent } : {}),
        startedAt,
        builtins: true,
        commands: args.slashCommand
      })
      summary = plan.kind === 'local' ? localSummary(plan.text, plan.localCommand) : await runToTheEnd(plan.prompt, plan.opts)
    }
  } catch (err) {
    // A run that could not start or go on still answers in the format asked for: a failure, with its reason.
    if (compact) process.stderr.write(`fanout run: ${errorMessage(err)}\n`)
    else summary = failedSummary(errorMessage(err))
    code = 1
  }
  // The look for worktrees left behind (when it had no quiet moment) runs beside the writes below.
  const looked = leftovers.settle()
  // The answer waits until the session's record says what it says: every transcript line written, and
  // session.json with the runs' ends (written as the last run ended, session-recorder.ts). The rest of the
  // close (SessionEnd hooks, MCP servers, the state the last run ended with, the files let go, the lock) comes
  // after it: nothing there changes what the record or the answer says (until its state is written, a restart
  // goes by the transcript's end), and a kill in between leaves a session that reads as it ended.
  const settled = session.flush({ endState: false }).then(
    () => null,
    (err: unknown) => ({ err })
  )
  // While those writes are under way (once they have started), the answer's JSON line is made and stdout readied.
  await new Promise((resolve) => setImmediate(resolve))
  let line = summary && (args.format === 'json' || args.format === 'events') ? jsonLine(summary) : null
  out.ready()
  const flushError = await settled
  if (flushError) {
    // What could not be saved is said in one line, never a stack trace; the result (written after) says it too.
    const why = `the session could not be saved completely: ${errorMessage(flushError.err)}`
    process.stderr.write(`fanout run: ${why}\n`)
    if (summary) markUndone(summary, 'session_not_saved', why)
    line = null
    if (code === 0) code = 1
  }
  await looked
  if (summary && writeFailures.length) {
    markUndone(
      summary,
      'transcript_write_failed',
      `the session's record is incomplete: ${writeFailures.length} write${writeFailures.length === 1 ? '' : 's'} to the data folder failed (${writeFailures[0]})`
    )
    line = null
  }
  // The line made above says what the result says: every change to it since (markUndone) dropped the line.
  if (summary) code = printResult(summary, line)
  // Only now, not as the run ended: a Ctrl-C while the record is saved still stops cleanly rather than killing the
  // process mid-write, and the SIGINT handler's removal (it closes the signal's handle) is not in the answer's way.
  process.off('SIGINT', onSigint)
  stuck.dispose()
  // Once the answer is out: the close, the end states' fsync and the view checkpoint. What fails there was said
  // on stderr; the run does not end in success then.
  const failuresBefore = writeFailures.length
  const closeError = await session.close('other', { checkpoint: false }).then(
    () => null,
    (err: unknown) => ({ err })
  )
  if (closeError) process.stderr.write(`fanout run: the session could not be closed cleanly: ${errorMessage(closeError.err)}\n`)
  await session.checkpoint()
  saveParseCache()
  if ((closeError || writeFailures.length > failuresBefore) && code === 0) code = 1
  out.dispose()
  await shutdownSandbox()
  return code

  function failedSummary(reason: string): ResultMessage {
    return failedResult(session.sessionId, counted, reason)
  }

  /** The result on stdout in the chosen format, the reason on stderr; the exit status. */
  function printResult(summary: ResultMessage, line: string | null = null): number {
    if (pipeClosed) return EXIT_PIPE_CLOSED
    // A multi-turn run printed each turn's result as it ended (runTurns): the last is not printed again.
    if (!printed.has(summary)) {
      printed.add(summary)
      if (line !== null) out.line(line)
      else if (args.format === 'json' || args.format === 'events') out.json(summary)
      else if (stream) stream.result(summary)
      else if (summary.result) out.write(`${summary.result}\n`)
      // Every format says why on stderr: stdout stays the answer or the machine-readable stream.
      if (summary.is_error) process.stderr.write(`fanout run: ${interrupted ? 'stopped (Ctrl-C)' : failureLine(summary)}\n`)
    }
    return interrupted ? 130 : summary.is_error ? 1 : 0
  }

  /**
   * `--retry`: the failed agents run again as the app's Retry runs them; resolves once they ended, with what
   * gives the result when no main-agent run does (a subagent whose report woke nobody: its own last run).
   */
  async function retryFailed(which: string | true): Promise<() => AgentRunResult> {
    const ids = which === true ? await session.failedAgents() : [which]
    if (!ids.length) throw new Error(`nothing to retry: no agent of session ${session.sessionId} failed`)
    const runs: Array<Promise<unknown>> = []
    const retried: string[] = []
    for (const id of ids) {
      const { agentId, run } = await session.retry(id)
      process.stderr.write(`fanout: retrying ${agentId === session.mainAgentId ? 'the main agent' : retryLabel(session, agentId).slice(0, -2)}\n`)
      retried.push(agentId)
      runs.push(run)
    }
    await Promise.allSettled(runs)
    return () => {
      const last = retried.map((id) => session.registry.get(id)?.lastResult).find((r) => r !== undefined)
      if (!last) throw new Error(`the retried agent${retried.length === 1 ? '' : 's'} ${retried.join(', ')} left no result`)
      return last
    }
  }

  /** The answer's steps (its summary, its JSON line, stdout's first write, of nothing) run once while the model works, nothing printed (first-request.ts). */
  function rehearseAnswer(): void {
    if (summary) return
    const rehearsal = summaryOf(answeredRun('', startedAt))
    if (args.format === 'json' || args.format === 'events') jsonLine(rehearsal)
    out.ready()
  }

  /** A slash command answered without a model call, as Claude Code's result line says it (`local_command`). */
  function localSummary(text: string, localCommand: string | undefined): ResultMessage {
    const summary = resultMessage({ sessionId: session.sessionId, result: answeredRun(text, startedAt), tally: counted, interrupted: false, overBudget: false })
    if (stream) stream.localAnswer(text, session.mainHandle().model)
    return Object.assign(summary, { stop_reason: null, ...(localCommand ? { local_command: localCommand } : {}) })
  }

  async function runToTheEnd(prompt: string | ContentBlock[], planned: Extract<PromptPlan, { kind: 'run' }>['opts']): Promise<ResultMessage> {
    if (args.resume) {
      // A session whose main conversation is gone is not started afresh as if it were new: that would be a
      // different run under the same id, and its answer would look like the resumed one's.
      if (session.lostHistory) throw new Error(`cannot resume session ${session.sessionId}: ${session.lostHistory}`)
      const resumed = await session.resumeInterrupted()
      for (const problem of resumed.problems) process.stderr.write(`fanout: resume: ${problem}\n`)
    }
    const runOpts = { ...(args.agent ? { agentType: args.agent } : {}), ...(args.maxTurns !== undefined ? { maxTurns: args.maxTurns } : {}) }
    if (args.turns) return runTurns(args.turns, runOpts)
    const ran = args.retry !== undefined ? await retryFailed(args.retry) : await session.run(prompt, { ...planned, ...runOpts })
    // A background agent's report starts another main-agent run: the answer is the last one.
    await session.idle()
    return summaryOf(session.lastResult ?? (typeof ran === 'function' ? ran() : ran))
  }

  /** --input-format stream-json: each turn's result is printed as it ends; the last one's is the run's (turn-batches.ts). */
  async function runTurns(turns: AsyncIterable<string>, runOpts: { agentType?: string; maxTurns?: number }): Promise<ResultMessage> {
    let last: ResultMessage | null = null
    for await (const texts of turnBatches(turns)) {
      if (last) {
        // Each turn's result counts its own model calls, and its stream opens with system/init.
        counted.mainTurns = 0
        stream?.newTurn()
      }
      // Each turn is a prompt as typed: a slash command in it runs as in a one-prompt run.
      const text = texts.join('\n\n')
      const plan = await planPrompt(session, text.trim(), {
        ...(args.agent ? { agent: args.agent } : {}),
        startedAt,
        builtins: true,
        commands: text.startsWith('/')
      })
      if (plan.kind === 'local') last = localSummary(plan.text, plan.localCommand)
      else {
        const first = await session.run(plan.prompt, { ...plan.opts, ...runOpts })
        await session.idle()
        last = summaryOf(session.lastResult ?? first)
      }
      printResult(last)
    }
    if (!last) throw new Error('Input must be provided either through stdin or as a prompt argument when using --print')
    return last
  }

  function summaryOf(result: AgentRunResult): ResultMessage {
    counted.refusals(session.gate.refused)
    const summary = resultMessage({
      sessionId: session.sessionId,
      result,
      tally: counted,
      interrupted,
      overBudget: session.gate.overBudget() !== null || result.limit === 'budget',
      windows: session.contextSettings.windows
    })
    // Nothing may be left queued or running once the session is idle: that would be work silently dropped.
    const left = session.unfinished()
    if (left.length) markUndone(summary, 'unfinished_agents', unfinishedMessage(left))
    // A team task still claimed once nothing runs will never be finished by its idle owner.
    const stalled = session.stalledTeamTasks()
    if (stalled.length) markUndone(summary, 'stalled_team_tasks', stalled.join(' '))
    return summary
  }
}
