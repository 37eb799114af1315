// Starting points for a new agent. Each is a complete, valid agent file in Claude Code's format, with a
// description that shows how to write `<example>` blocks as a YAML block scalar (the way that never breaks).
import type { AgentTemplate } from '../../../shared/agent-editor'

interface Template extends AgentTemplate {
  text: (name: string) => string
}

const TEMPLATES: Template[] = [
  {
    id: 'blank',
    label: 'Blank',
    description: 'A name, a description and a prompt; every tool.',
    text: (name) => `---
name: ${name}
description: Describe when the main agent should hand a task to ${name}.
---

You are ${name}. Describe the agent's role, how it works, and what its final report contains.
`
  },
  {
    id: 'reviewer',
    label: 'Code reviewer',
    description: 'Reads code and reports findings; cannot change files.',
    text: (name) => `---
name: ${name}
description: |-
  Reviews code for correctness, error handling and clarity. Use after a change is made.
  <example>
  user: "I rewrote the parser's error handling"
  assistant: "I'll ask ${name} to review the change."
  </example>
tools: Read, Grep, Glob
model: sonnet
color: purple
---

You review code. Read the files involved, then report concrete findings, each with file:line, what is
wrong and how to fix it. Say plainly when you find nothing worth changing.
`
  },
  {
    id: 'researcher',
    label: 'Researcher',
    description: 'Searches the code and the web, then summarises.',
    text: (name) => `---
name: ${name}
description: Finds out how something works, in this code and on the web, and reports with sources.
tools: Read, Grep, Glob, WebFetch, WebSearch
model: haiku
color: cyan
---

You research one question. Search the code first, then the web if needed. Report what you found in a few
sentences, with the files and links you relied on.
`
  },
  {
    id: 'worker',
    label: 'Isolated worker',
    description: 'Makes changes in its own git worktree and commits them on a branch.',
    text: (name) => `---
name: ${name}
description: Implements a well-defined change in its own git worktree, so it never touches your checkout.
tools: Read, Edit, Write, Grep, Glob, Bash
isolation: worktree
color: green
maxTurns: 40
---

You implement one change. Read the relevant code, make the change, run the tests, and report what you
changed and how you checked it.
`
  }
]

export const agentTemplates = (): AgentTemplate[] => TEMPLATES.map(({ id, label, description }) => ({ id, label, description }))

export function templateText(id: string, name: string): string | undefined {
  return TEMPLATES.find((t) => t.id === id)?.text(name)
}
