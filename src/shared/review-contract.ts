// The review part of the IPC contract: zod request and response schemas of each call (each served by its
// entry in host/review-handlers.ts) and the notice the host pushes when agents' work was landed or dropped. Spread into
// CONTRACT and HostNoticeSchema by ipc-contract.ts; both transports validate every payload against it.
import { z } from 'zod'
import { AbsolutePath } from './contract-fields'
import type {
  AgentChanges,
  AgentCommit,
  ChangedFile,
  CheckoutState,
  DiscardOutcome,
  DryRun,
  FileDiff,
  LandedRecord,
  MergeOutcome,
  MergePreview,
  MergeStop,
  MergedAgent,
  PreviewPair,
  ReviewList
} from './review'

const Cwd = AbsolutePath

/** Agent ids name branches and folders (see create-worktree.ts): letters, digits, '.', '_' and '-'. */
const AgentId = z
  .string({ error: 'agentId must be a string' })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'agentId must be an agent id (letters, digits, . _ -)')
const AgentIds = z.array(AgentId).max(500, 'at most 500 agents at once')
const Sha = z.string().regex(/^[0-9a-f]{40,64}$/, 'must be a full commit id')
const RelPath = z
  .string({ error: 'path must be a string' })
  .min(1, 'path is empty')
  .max(4096, 'path is longer than 4096 characters')
  .refine((p) => !p.startsWith('/') && !p.split(/[\\/]/).includes('..') && !p.includes('\0'), 'path must be relative to the repository, without ..')

export const MergeStrategySchema = z.enum(['merge', 'squash'])

const ChangedFileSchema = z.object({
  path: z.string(),
  oldPath: z.string().optional(),
  status: z.enum(['added', 'modified', 'deleted', 'renamed', 'copied', 'type-changed']),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
  binary: z.boolean()
}) satisfies z.ZodType<ChangedFile>

const CommitSchema = z.object({ sha: z.string(), subject: z.string(), author: z.string(), date: z.number() }) satisfies z.ZodType<AgentCommit>

const AgentChangesSchema = z.object({
  agentId: z.string(),
  branch: z.string(),
  tip: z.string(),
  baseCommit: z.string(),
  worktreePath: z.string().nullable(),
  agentType: z.string().optional(),
  description: z.string().optional(),
  state: z.enum(['running', 'ready', 'merged', 'empty']),
  commits: z.array(CommitSchema),
  files: z.array(ChangedFileSchema),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
  uncommitted: z.array(ChangedFileSchema)
}) satisfies z.ZodType<AgentChanges>

const CheckoutSchema = z.object({
  root: z.string(),
  branch: z.string().nullable(),
  head: z.string().nullable(),
  dirtyFiles: z.array(z.string()),
  operation: z.string().nullable()
}) satisfies z.ZodType<CheckoutState>

const LandedSchema = z.object({
  agentId: z.string(),
  branch: z.string(),
  action: z.enum(['merged', 'squashed', 'discarded']),
  commit: z.string(),
  into: z.string().optional(),
  at: z.number()
}) satisfies z.ZodType<LandedRecord>

const ReviewListSchema = z.object({
  checkout: CheckoutSchema,
  agents: z.array(AgentChangesSchema),
  gone: z.array(z.object({ agentId: z.string(), branch: z.string(), outcome: LandedSchema.nullable() }))
}) satisfies z.ZodType<ReviewList>

const FileDiffSchema = z.object({
  path: z.string(),
  oldPath: z.string().optional(),
  oldText: z.string().nullable(),
  newText: z.string().nullable(),
  binary: z.boolean(),
  tooLarge: z.boolean(),
  oldSize: z.number().nonnegative(),
  newSize: z.number().nonnegative()
}) satisfies z.ZodType<FileDiff>

const DryRunSchema = z.object({ clean: z.boolean(), conflicts: z.array(z.string()) }) satisfies z.ZodType<DryRun>

const MergeStopSchema = z.object({
  agentId: z.string(),
  branch: z.string(),
  reason: z.enum(['conflict', 'dirty', 'running', 'operation', 'detached', 'untracked', 'failed']),
  message: z.string(),
  files: z.array(z.string()),
  with: z.array(z.string())
}) satisfies z.ZodType<MergeStop>

const PreviewSchema = z.object({
  checkout: CheckoutSchema,
  agents: z.array(
    z.object({
      agentId: z.string(),
      branch: z.string(),
      agentType: z.string().optional(),
      description: z.string().optional(),
      files: z.array(z.string()),
      againstHead: DryRunSchema,
      uncommitted: z.number().int().nonnegative()
    })
  ),
  pairs: z.array(z.object({ a: z.string(), b: z.string(), overlap: z.array(z.string()), result: DryRunSchema }) satisfies z.ZodType<PreviewPair>),
  order: z.array(z.string()),
  blocked: MergeStopSchema.nullable()
}) satisfies z.ZodType<MergePreview>

const MergedSchema = z.object({
  agentId: z.string(),
  branch: z.string(),
  commit: z.string(),
  strategy: MergeStrategySchema,
  files: z.number().int().nonnegative(),
  cleanup: z.string().nullable()
}) satisfies z.ZodType<MergedAgent>

const MergeOutcomeSchema = z.object({
  merged: z.array(MergedSchema),
  stopped: MergeStopSchema.nullable(),
  notMerged: z.array(z.string()),
  into: z.string().nullable(),
  skipped: z.array(z.string())
}) satisfies z.ZodType<MergeOutcome>

const DiscardOutcomeSchema = z.object({
  agentId: z.string(),
  branch: z.string(),
  removedWorktree: z.boolean(),
  deletedBranch: z.boolean(),
  lostCommits: z.number().int().nonnegative(),
  lostFiles: z.number().int().nonnegative()
}) satisfies z.ZodType<DiscardOutcome>

/** What an agent's worktree can be opened with. */
export const OPEN_WITH = ['files', 'editor', 'terminal'] as const
export type OpenWith = (typeof OPEN_WITH)[number]

export const REVIEW_CONTRACT = {
  /** What each agent changed on its branch (files with counts, commits, worktree), and the checkout's state. */
  'review.list': {
    request: z.object({ cwd: Cwd, agentIds: AgentIds.optional() }).strict(),
    response: z.object({ list: ReviewListSchema })
  },
  /** Both sides of one changed file, for the diff viewer. */
  'review.file': {
    request: z.object({ cwd: Cwd, agentId: AgentId, path: RelPath, uncommitted: z.boolean().optional() }).strict(),
    response: z.object({ diff: FileDiffSchema })
  },
  /** `git merge-tree` dry runs: each agent against HEAD and each pair, and the order "merge all" takes. */
  'review.preview': {
    request: z.object({ cwd: Cwd, agentIds: AgentIds.optional() }).strict(),
    response: z.object({ preview: PreviewSchema })
  },
  /** Merges agents' branches into the checked-out branch (all or nothing each), stopping at the first conflict. */
  'review.merge': {
    request: z
      .object({ cwd: Cwd, agentIds: AgentIds.optional(), all: z.boolean().optional(), strategy: MergeStrategySchema })
      .strict()
      .refine((r) => r.all === true || (r.agentIds?.length ?? 0) > 0, {
        message: 'name the agents to merge (agentIds) or ask for all of them (all: true)',
        path: ['agentIds']
      }),
    response: z.object({ outcome: MergeOutcomeSchema })
  },
  /** Removes an agent's worktree and branch, once the person confirmed what is lost. */
  'review.discard': {
    /** `expectTip`: the branch tip the person was shown when confirming; the discard is refused if it moved. */
    request: z.object({ cwd: Cwd, agentId: AgentId, expectTip: Sha }).strict(),
    response: z.object({ outcome: DiscardOutcomeSchema })
  },
  /**
   * Opens an agent's worktree folder in the system's file manager, a code editor or a terminal (`with`,
   * default the file manager). Only ever on the person's click; only a worktree git lists for the agent's branch.
   */
  'review.openFolder': {
    request: z.object({ cwd: Cwd, agentId: AgentId, with: z.enum(OPEN_WITH).optional() }).strict(),
    /** `opened` false: no file manager could be started here; `message` says why and the path is there to copy. */
    response: z.object({ path: z.string(), opened: z.boolean(), message: z.string().optional() })
  }
} as const
export type ReviewCallName = keyof typeof REVIEW_CONTRACT

export const REVIEW_NOTICES = [
  /** Agents' work in a repository was merged or discarded: open Changes views of that folder read it again. */
  z.object({ type: z.literal('review_changed'), cwd: z.string() })
] as const
