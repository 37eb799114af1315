// What a transcript line must be, per format version (validated on read: reader.ts, decode.ts). The header
// is checked whole; an event line by its envelope, the fields every reader relies on (EventBase, and `type`),
// with the rest of it kept as written: an event's payload is the shared AgentEvent union's, which grows by
// optional fields without a new version (a new optional field is no reason to migrate a file).
import { z } from 'zod'
import { lazy } from '../../../../shared/lazy'

/** Each version's line schemas, by version number; built at first use (a run that reads no transcript builds none). */
export const SCHEMAS = lazy(() => {
  const headerFields = {
    type: z.literal('header'),
    agentId: z.string(),
    sessionId: z.string(),
    parentAgentId: z.string().nullable(),
    /** Milliseconds since the epoch, like event timestamps. */
    createdAt: z.number()
  }

  /**
   * Version 1 (since the first store, 41c2868): a header line, then one AgentEvent per line. Lines written
   * before c02a7cd (2026-11-22) have no `seq`; lines written after it have one.
   */
  const headerV1 = z.looseObject({ ...headerFields, version: z.literal(1) })
  const eventV1 = z.looseObject({
    type: z.string().refine((t) => t !== 'header', 'a second header'),
    agentId: z.string(),
    parentAgentId: z.string().nullable(),
    sessionId: z.string(),
    ts: z.number(),
    seq: z.number().optional()
  })

  /** Version 2: as 1, and every event line has its place in the session's stream (`seq`, EventBase.seq). */
  const headerV2 = z.looseObject({ ...headerFields, version: z.literal(2) })
  const eventV2 = eventV1.extend({ seq: z.number() })

  return {
    1: { header: headerV1, event: eventV1 },
    2: { header: headerV2, event: eventV2 }
  } as const
})

export type FormatVersion = keyof ReturnType<typeof SCHEMAS>

/** The first line of any version: enough to know which schema the rest follows. */
export const anyHeader = lazy(() => z.looseObject({ type: z.literal('header'), version: z.number().int().positive() }))

/** A zod error in one line of words: the first problem and where it is. */
export function problemOf(error: z.ZodError): string {
  const first = error.issues[0]
  if (!first) return 'invalid'
  const where = first.path.length ? `${first.path.join('.')}: ` : ''
  return `${where}${first.message}`
}
