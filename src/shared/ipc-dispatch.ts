// Serves one contract call against a RuntimeHost: validates the request, calls the call's entry in the host's
// handler table, validates the response, and turns every failure into an IpcResult error a person can read.
// Used by both adapters (Electron IPC and the browser-mode WebSocket), so both enforce the same contract.
import type { CallHandlers } from './call-handlers'
import type { RuntimeHost } from './host'
import {
  CONTRACT,
  IPC_ERROR_CODES,
  SHELL_CALLS,
  describeZodError,
  isCallName,
  zodFieldErrors,
  type CallName,
  type FieldErrors,
  type IpcErrorCode,
  type IpcResult
} from './ipc-contract'

/** Calls a platform serves itself (e.g. Electron's folder picker); absent ones answer `unsupported`. */
export type ShellHandlers = Partial<CallHandlers<CallName>>

const codes = new Set<string>(IPC_ERROR_CODES)

function errorResult(code: IpcErrorCode, message: string, fields?: FieldErrors): IpcResult<never> {
  return { ok: false, error: { code, message, ...(fields && Object.keys(fields).length ? { fields } : {}) } }
}

/** Only a plain record of sentences travels as `fields`. */
function fieldsOf(value: unknown): FieldErrors | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const entries = Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string')
  return entries.length ? Object.fromEntries(entries) : undefined
}

export function toIpcError(call: string, err: unknown): IpcResult<never> {
  const e = err as { code?: unknown; message?: unknown; fields?: unknown } | null
  const message = typeof e?.message === 'string' && e.message ? e.message : String(err)
  if (typeof e?.code === 'string' && codes.has(e.code)) return errorResult(e.code as IpcErrorCode, message, fieldsOf(e.fields))
  return errorResult('internal', `${call} failed: ${message}`)
}

function resolveHandler(host: RuntimeHost, name: CallName, shell: ShellHandlers): ((req: unknown) => Promise<unknown>) | null {
  const own = shell[name] as ((req: unknown) => Promise<unknown>) | undefined
  if (own) return own
  if ((SHELL_CALLS as readonly string[]).includes(name)) return null
  // An own entry only: a call name never reaches what a plain object inherits.
  const fn = Object.prototype.hasOwnProperty.call(host.handlers, name) ? (host.handlers as Record<string, unknown>)[name] : undefined
  return typeof fn === 'function' ? (fn as (req: unknown) => Promise<unknown>) : null
}

export async function dispatchCall(host: RuntimeHost, name: unknown, payload: unknown, shell: ShellHandlers = {}): Promise<IpcResult<unknown>> {
  if (!isCallName(name)) return errorResult('unknown_call', `There is no call named ${JSON.stringify(String(name)).slice(0, 80)}.`)
  const spec = CONTRACT[name]
  const parsed = spec.request.safeParse(payload ?? {})
  if (!parsed.success) return errorResult('invalid_request', describeZodError(name, parsed.error), zodFieldErrors(parsed.error))

  const handler = resolveHandler(host, name, shell)
  if (!handler) return errorResult('unsupported', `${name} is not available here.`)

  let value: unknown
  try {
    value = await handler(parsed.data)
  } catch (err) {
    return toIpcError(name, err)
  }
  const checked = spec.response.safeParse(value ?? {})
  if (!checked.success) return errorResult('internal', `The runtime answered ${describeZodError(name, checked.error)}`)
  return { ok: true, value: checked.data }
}
