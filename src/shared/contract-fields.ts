// The small pieces every part of the IPC contract is built of: ids, absolute paths, prompts, the main
// agent's permission modes, empty requests and answers, and the lists of statuses and event types.
import { z } from 'zod'
import { PERMISSION_MODES } from './agent-definition'
import type { AgentEventType, AgentStatus } from './events'

export const AGENT_STATUSES = [
  'queued',
  'running',
  'waiting_permission',
  'completed',
  'failed',
  'stopped',
  'max_turns',
  'interrupted'
] as const satisfies readonly AgentStatus[]
// Fails to compile when events.ts gains a status this list lacks.
const _allStatuses: Exclude<AgentStatus, (typeof AGENT_STATUSES)[number]> extends never ? true : false = true

export const AGENT_EVENT_TYPES = [
  'agent_start',
  'agent_end',
  'status',
  'turn_start',
  'turn_end',
  'model_request',
  'text_delta',
  'thinking_delta',
  'message',
  'reply_blocks',
  'tool_start',
  'tool_input_delta',
  'tool_run',
  'tool_update',
  'tool_end',
  'usage',
  'error',
  'permission_request',
  'permission_response',
  'message_received',
  'phase',
  'team',
  'compaction_start',
  'compaction',
  'budget',
  'estimate',
  'command_output'
] as const satisfies readonly AgentEventType[]
const _allEventTypes: Exclude<AgentEventType, (typeof AGENT_EVENT_TYPES)[number]> extends never ? true : false = true

/** Ids travel into file names and maps: keep them to a safe alphabet. */
export const Id = (what: string) =>
  z.string({ error: `${what} must be a string` }).regex(/^[A-Za-z0-9._:@-]{1,200}$/, `${what} must be 1-200 letters, digits or . _ : @ -`)

/** An absolute path (POSIX, drive letter or UNC); `what` names the field in the sentence a refusal says. */
export const Absolute = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .min(1, `${what} must not be empty`)
    .max(4096, `${what} is longer than 4096 characters`)
    .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\'), `${what} must be an absolute path`)

export const AbsolutePath = Absolute('cwd')

/** The longest prompt a session takes: the prompt box says so before it sends more. */
export const PROMPT_MAX_CHARS = 500_000
/** The longest message to an agent. */
export const MESSAGE_MAX_CHARS = 100_000
/**
 * The largest browser-mode frame the server reads: a larger one is refused and its connection closed (code
 * 1009). A prompt at PROMPT_MAX_CHARS fits however it is encoded.
 */
export const WS_MAX_FRAME_BYTES = 8 * 1024 * 1024

export const Prompt = z
  .string({ error: 'prompt must be a string' })
  .trim()
  .min(1, 'prompt is empty')
  .max(PROMPT_MAX_CHARS, `prompt is longer than ${PROMPT_MAX_CHARS.toLocaleString('en-US')} characters`)

/** The main agent has no parent, so `bubble` is not a mode it can have. */
export const MainAgentMode = z.enum(PERMISSION_MODES).refine((m) => m !== 'bubble', 'The main agent has no parent to bubble requests to; choose another mode.')

export const Empty = z.object({}).strict()
export const None = z.object({})

void _allStatuses
void _allEventTypes
