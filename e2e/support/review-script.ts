// The scripted model for the Changes view's e2e spec: a main agent starts implementers that each work in
// their own git worktree (the project's `implementer` agent file says `isolation: worktree`), reading and
// editing real files with the real tools. Two of them change the same line of src/lexer.ts differently, so
// the conflict preview has a real conflict to show.
import { block, reply, type AgentScript, type ParsedRequest } from '../../src/main/runtime/model/scripted'

export const REVIEW_MARKER = '[review e2e]'
const TAG = /\[review agent (\w+)\]/

/** The agent file the spec writes into the project (and commits, so the checkout is clean). */
export const IMPLEMENTER_AGENT = `---
name: implementer
description: Implements one small change in its own worktree.
tools: Read, Write, Edit
isolation: worktree
permissionMode: acceptEdits
color: cyan
---
You implement one small change and report what you changed.
`

const LEX_LINE = '  return src.split(/\\s+/)'

interface Job {
  description: string
  steps: Array<{ text: string; tools: Array<{ name: string; input: Record<string, unknown> }> }>
  report: string
}

export const REVIEW_JOBS: Record<string, Job> = {
  errors: {
    description: 'Report where lexer errors happen',
    steps: [
      { text: 'Reading the lexer first.', tools: [{ name: 'Read', input: { file_path: 'src/lexer.ts' } }] },
      {
        text: 'Adding a LexError with a line and column, and using it for empty tokens.',
        tools: [
          {
            name: 'Edit',
            input: {
              file_path: 'src/lexer.ts',
              old_string: LEX_LINE,
              new_string:
                "  const tokens = src.split(/\\s+/)\n  const empty = tokens.indexOf('')\n  if (empty > 0) throw new LexError('empty token', 1, empty + 1)\n  return tokens"
            }
          },
          {
            name: 'Write',
            input: {
              file_path: 'src/errors.ts',
              content:
                'export class LexError extends Error {\n  constructor(message: string, readonly line: number, readonly column: number) {\n    super(`${message} at ${line}:${column}`)\n  }\n}\n'
            }
          }
        ]
      }
    ],
    report: 'Lexer errors now carry a line and column (src/errors.ts, src/lexer.ts).'
  },
  docs: {
    description: 'Document lex() in the README',
    steps: [
      { text: 'Reading the README.', tools: [{ name: 'Read', input: { file_path: 'README.md' } }] },
      {
        text: 'Adding an API section.',
        tools: [
          {
            name: 'Edit',
            input: {
              file_path: 'README.md',
              old_string: '`parse(src)` returns an AST.',
              new_string: '`parse(src)` returns an AST.\n\n## API\n\n- `lex(src)` splits the source into tokens.'
            }
          }
        ]
      }
    ],
    report: 'The README documents lex() now.'
  },
  trim: {
    description: 'Trim the input before lexing',
    steps: [
      { text: 'Reading the lexer.', tools: [{ name: 'Read', input: { file_path: 'src/lexer.ts' } }] },
      {
        text: 'Trimming the input first.',
        tools: [{ name: 'Edit', input: { file_path: 'src/lexer.ts', old_string: LEX_LINE, new_string: '  return src.trim().split(/\\s+/)' } }]
      }
    ],
    report: 'lex() trims its input first.'
  }
}

const PACE = { textChunk: 8, chunkDelayMs: 15 }

export function reviewScripts(opts: { speed: number }): AgentScript[] {
  const pace = { textChunk: PACE.textChunk, chunkDelayMs: Math.round(PACE.chunkDelayMs * opts.speed) }
  return [
    {
      name: 'review implementer',
      match: TAG,
      turns: Array.from({ length: 4 }, (_, turn) => (req: ParsedRequest) => {
        const job = REVIEW_JOBS[TAG.exec(req.firstUserText)![1]]
        const step = job.steps[turn]
        return step
          ? reply.with(pace, block.text(step.text), ...step.tools.map((t) => block.toolUse(t.name, t.input)))
          : reply.with(pace, block.text(job.report))
      })
    },
    {
      name: 'review main',
      match: (req: ParsedRequest) => req.firstUserText.includes(REVIEW_MARKER),
      turns: [
        (req: ParsedRequest) => {
          const names = /conflict/.test(req.firstUserText) ? ['errors', 'docs', 'trim'] : ['errors', 'docs']
          return reply.with(
            { ...pace, jsonChunk: 400 },
            block.text('Each change goes to its own implementer, in its own worktree.'),
            ...names.map((n) =>
              block.toolUse('Agent', {
                description: REVIEW_JOBS[n].description,
                subagent_type: 'implementer',
                prompt: `[review agent ${n}] ${REVIEW_JOBS[n].description}.`
              })
            )
          )
        },
        () => reply.with(pace, block.text('All three are done; their work waits on their branches for your review.'))
      ],
      then: () => reply.with(pace, block.text('Noted.'))
    }
  ]
}
