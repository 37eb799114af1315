// How a delivery is asked for and what became of it (see delivery.ts).

export interface DeliverOptions {
  /** Agent id, or `user`. */
  from: string
  summary?: string
  /** Start the agent if it is idle: resume a finished subagent, run the main agent. Default true. */
  wake?: boolean
  /** For a resumed subagent: who gets its report (see RunRequest.reportTo). */
  reportTo?: string | null
  /** Names the delivery (default: a new id). The same id delivered again to the same agent is dropped. */
  deliveryId?: string
}

export type Delivery = 'inbox' | 'resumed' | 'woke' | 'mailbox' | 'held'
