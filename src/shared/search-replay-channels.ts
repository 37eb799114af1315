// Search and replay's contract calls, mapped to the RuntimeHost / `window.fanout` method serving each.
// Kept free of zod (like ipc-channels.ts, which spreads this in) so the preload can import it.
export const SEARCH_REPLAY_CALLS = {
  /** Full-text search in one session (every transcript, tool inputs and outputs) or across a folder's sessions. */
  'search.query': 'searchSessions',
  /** A recorded session's timeline for replay: its span, marks and activity. */
  'replay.open': 'openReplay',
  /** The session as it was at a moment (a seq), folded from its recorded events. */
  'replay.frame': 'replayFrame',
  /** The recorded events after a moment, in steps that each end where the live view was whole. */
  'replay.steps': 'replaySteps'
} as const
