// The person's answer to a permission request, defined once: the renderer's card, the IPC contract, the
// permission_response event, the view state and the runtime all take these. Not to be confused with the tool-call
// pipeline's CallVerdict (runtime/tool-call/verdict.ts), which is what each step of a call decides.
import { z } from 'zod'

export const PERMISSION_CHOICES = ['allow', 'allow_always', 'deny'] as const
/** Allow once, allow always (adds the suggested rules for the session), or deny. */
export type PermissionChoice = (typeof PERMISSION_CHOICES)[number]

/** The longest note a person may send with an answer: a few sentences, not a document. */
export const FEEDBACK_MAX_CHARS = 2000

/** Words for the agent with an answer ("use the test script instead"); empty is none. */
export const PermissionFeedback = z
  .string({ error: 'feedback must be a string' })
  .trim()
  .max(FEEDBACK_MAX_CHARS, `feedback is longer than ${FEEDBACK_MAX_CHARS.toLocaleString('en-US')} characters`)

export interface PermissionAnswer {
  decision: PermissionChoice
  /** Said to the agent with the answer (its tool result carries it); absent or empty: nothing said. */
  feedback?: string
}

export const PermissionAnswerSchema = z.object({ decision: z.enum(PERMISSION_CHOICES), feedback: PermissionFeedback.optional() })
