// The files a person's prompt mentions (`@src/app.ts`), read for the main agent as Claude Code reads them: by
// the agent's own Read tool, built on its path check (deny rules, links swapped in, regular files only,
// bounded). A mention reaches only what a person's reading in the project would: inside the working
// directories as written and where it leads, and no protected path (credentials, hooks, git's own files).
// An `@agent-type` naming an agent the session has adds Claude Code's reminder that the person wants it.
import type { ContentBlock } from '../../../../shared/events'
import { agentMentions, agentMentionText, fileMentions, fileMentionTexts } from '../../context/file-mentions'
import { reminderBlock } from '../../loop'
import { runTool } from '../../tool-call'
import type { PathPolicy } from '../../security/path-policy'
import { protectedReason } from '../../security/protected-paths'
import { createReadTool } from '../../tools/read'

export async function mentionBlocks(prompt: string, paths: PathPolicy, agentId: string, isAgent: (agentType: string) => boolean): Promise<ContentBlock[]> {
  const blocks: ContentBlock[] = agentMentions(prompt)
    .filter(isAgent)
    .map((type) => reminderBlock(agentMentionText(type)))
  for (const [i, path] of fileMentions(prompt).entries()) {
    const file = await readMention(paths, path, agentId, `mention-${i}`)
    if (file) for (const text of fileMentionTexts(file.path, file.content)) blocks.push(reminderBlock(text))
  }
  return blocks
}

/**
 * One mentioned file as the Read tool returns it, or null for what a mention may not reach (outside the working
 * directories, a protected path) or cannot read. A typed prompt's `@path` and a command file's alike.
 */
export async function readMention(paths: PathPolicy, path: string, agentId: string, toolUseId: string): Promise<{ path: string; content: string } | null> {
  const abs = paths.absolute(path)
  if (!paths.inBounds(abs) || paths.candidates(abs).some((c) => protectedReason(c, { roots: paths.roots(), home: paths.home }))) return null
  const read = createReadTool({ cwd: paths.cwd, paths })
  const result = await runTool(read, { file_path: abs }, { signal: new AbortController().signal, agentId, toolUseId })
  return result.isError ? null : { path: abs, content: result.content }
}
