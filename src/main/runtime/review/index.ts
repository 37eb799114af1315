// Reviewing and landing agents' work (their `fanout/<agentId>` branches): changes, diffs, the conflict
// preview, merge and discard. See docs/reviewing-agents-work.md.
export { AgentWorkReview, resolveNames } from './review-service'
export type { AgentWorkReviewOptions, MergeRequest } from './review-service'
export { ReviewError } from './review-error'
export { discardWarning } from './discard'
export { agentLabel } from './merge-one'
export { supportsWriteTree, gitVersion } from './dry-run'
export type { AgentBranch } from './agent-branches'
