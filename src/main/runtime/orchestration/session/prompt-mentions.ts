// The files a person's prompt mentions (`@src/app.ts`), read for the main agent as Claude Code reads them: by
// the agent's own Read tool, built on its path check (deny rules, links swapped in, regular files only,
// bounded). A mention reaches only what a person's reading in the project would: inside the working
// directories as written and where it leads, and no protected path (credentials, hooks, git's own files).
import type { ContentBlock } from '../../../../shared/events'
import { fileMentions, fileMentionTexts } from '../../context/file-mentions'
import { reminderBlock } from '../../loop'
import { runTool } from '../../loop/run-tools'
import type { PathPolicy } from '../../security/path-policy'
import { protectedReason } from '../../security/protected-paths'
import { createReadTool } from '../../tools/read'

export async function fileMentionBlocks(prompt: string, paths: PathPolicy, agentId: string): Promise<ContentBlock[]> {
  const wanted = fileMentions(prompt)
  if (wanted.length === 0) return []
  const read = createReadTool({ cwd: paths.cwd, paths })
  const blocks: ContentBlock[] = []
  for (const [i, path] of wanted.entries()) {
    const abs = paths.absolute(path)
    if (!paths.inBounds(abs) || paths.candidates(abs).some((c) => protectedReason(c, { roots: paths.roots(), home: paths.home }))) continue
    const result = await runTool(read, { file_path: abs }, { signal: new AbortController().signal, agentId, toolUseId: `mention-${i}` })
    if (result.isError) continue
    for (const text of fileMentionTexts(abs, result.content)) blocks.push(reminderBlock(text))
  }
  return blocks
}
