// The review calls of the contract (reviewing and landing agents' work), mapped to the RuntimeHost /
// `window.fanout` method serving each. Kept free of zod (like ipc-channels.ts, which spreads this in) so
// the preload can import it.
export const REVIEW_CALLS = {
  /** What each agent changed on its branch (files with counts, commits, worktree), and the checkout's state. */
  'review.list': 'listChanges',
  /** Both sides of one changed file, for the diff viewer. */
  'review.file': 'changedFile',
  /** `git merge-tree` dry runs: each agent against HEAD and each pair, and the order "merge all" takes. */
  'review.preview': 'previewMerges',
  /** Merges agents' branches into the checked-out branch (all or nothing each), stopping at the first conflict. */
  'review.merge': 'mergeAgents',
  /** Removes an agent's worktree and branch, once the person confirmed what is lost. */
  'review.discard': 'discardAgent',
  /** Opens an agent's worktree folder in the system's file manager. */
  'review.openFolder': 'openAgentFolder'
} as const
