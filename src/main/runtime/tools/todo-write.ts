// TodoWrite: the agent's own task list. The whole list is replaced on each call (Claude Code's contract);
// the UI gets the new and previous lists in details.
import { z } from 'zod'
import { toolInput } from './define-tool'
import { builtinTool } from './builtin-tool'
import { type Todo, TodoList, todoSchema } from './todo-list'
import type { BuiltinToolOptions } from './tool-options'

export { TODO_STATUSES, TodoList, type Todo } from './todo-list'

const schema = toolInput('TodoWrite', () => z.object({ todos: z.array(todoSchema()).describe('The updated todo list (replaces the previous one)') }))

export const TODO_WRITE_TOOL = builtinTool({ name: 'TodoWrite', readOnly: true, concurrencySafe: false, permission: 'free' }, (opts: BuiltinToolOptions) => {
  const list = opts.todos ?? new TodoList()
  return {
    description: [
      'Creates and updates your structured task list for this task: use it for work with several steps, to track progress and show it to the user.',
      'Send the whole list each time. Keep exactly one task in_progress while working; mark tasks completed as soon as they are done.'
    ].join('\n'),
    schema,
    async execute(input) {
      const previous = list.items
      list.items = input.todos
      const count = (s: Todo['status']): number => input.todos.filter((t) => t.status === s).length
      const summary = `${count('completed')} completed, ${count('in_progress')} in progress, ${count('pending')} pending`
      return {
        content: `Todo list updated (${summary}). Keep it current as you work: mark each task completed as soon as it is done.`,
        details: { todos: input.todos, previous }
      }
    }
  }
})

/** TodoWrite, built for one agent alone (tests; the registry builds them all). */
export const createTodoWriteTool = TODO_WRITE_TOOL.create
