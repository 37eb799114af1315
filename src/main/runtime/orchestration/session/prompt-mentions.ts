// The files a person's prompt mentions (`@src/app.ts`), read for the main agent as Claude Code reads them: by
// the agent's own Read tool, built on its path check (deny rules, links swapped in, regular files only,
// bounded). A mention reaches only what a person's reading in the project would: inside the working
// directories as written and where it leads, and no protected path (credentials, hooks, git's own files).
// An `@agent-type` naming an agent the session has adds Claude Code's reminder that the person wants it.
import type { ContentBlock } from '../../../../shared/events'
import { agentMentions, agentMentionText, fileMentions, fileMentionTexts } from '../../context/file-mentions'
import { reminderBlock } from '../../loop'
import { runTool } from '../../loop/run-tools'
import type { PathPolicy } from '../../security/path-policy'
import { protectedReason } from '../../security/protected-paths'
import { createReadTool } from '../../tools/read'

export async function mentionBlocks(prompt: string, paths: PathPolicy, agentId: string, isAgent: (agentType: string) => boolean): Promise<ContentBlock[]> {
  const blocks: ContentBlock[] = agentMentions(prompt)
    .filter(isAgent)
    .map((type) => reminderBlock(agentMentionText(type)))
  const wanted = fileMentions(prompt)
  if (wanted.length === 0) return blocks
  const read = createReadTool({ cwd: paths.cwd, paths })
  for (const [i, path] of wanted.entries()) {
    const abs = paths.absolute(path)
    if (!paths.inBounds(abs) || paths.candidates(abs).some((c) => protectedReason(c, { roots: paths.roots(), home: paths.home }))) continue
    const result = await runTool(read, { file_path: abs }, { signal: new AbortController().signal, agentId, toolUseId: `mention-${i}` })
    if (result.isError) continue
    for (const text of fileMentionTexts(abs, result.content)) blocks.push(reminderBlock(text))
  }
  return blocks
}
