// One agent's todo list (what TodoWrite replaces on each call), apart from the tool so the options every tool
// takes can name it without importing a tool.
import { z } from 'zod'
import { lazy } from '../../../shared/lazy'

export const TODO_STATUSES = ['pending', 'in_progress', 'completed'] as const

export const todoSchema = lazy(() =>
  z.object({
    content: z.string().min(1).describe('What needs doing, in the imperative ("Run the tests")'),
    status: z.enum(TODO_STATUSES),
    activeForm: z.string().min(1).optional().describe('The same task in the present continuous ("Running the tests"), shown while in progress'),
    id: z.string().optional()
  })
)

export type Todo = z.infer<ReturnType<typeof todoSchema>>

/** One agent's list; pass the same instance when rebuilding tools (e.g. on resume) to keep it. */
export class TodoList {
  items: Todo[] = []
}
