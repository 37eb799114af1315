// "Every file under a root that a search should see": walked in-process for a small tree, `rg --files` for a
// larger one (search-engine.ts), the same walk when rg is missing; hidden files included, .gitignore honoured,
// `.git` skipped. Results are root-relative, forward-slash.
import { withDir } from '../security/open-beneath'
import { OverrideGlobs } from './ignore-rules'
import { walkFiles } from './file-walk'
import { runRipgrep } from './ripgrep'
import { IN_PROCESS_SEARCH_UP_TO, smallTreeFiles } from './search-engine'

export const RG_BASE_ARGS = ['--no-config', '--hidden', '--no-require-git']
/** A Glob rooted at / or a home directory must not hold millions of paths in memory. */
export const LIST_FILES_CAP = 250_000

export type SearchEngine = 'rg' | 'js'

export async function listFiles(
  root: string,
  rg: string | null,
  signal?: AbortSignal,
  upTo = IN_PROCESS_SEARCH_UP_TO
): Promise<{ files: string[]; engine: SearchEngine }> {
  const overrides = new OverrideGlobs(['!.git'])
  if (!rg) return { files: await walkFiles({ root, overrides, signal, maxFiles: LIST_FILES_CAP }), engine: 'js' }
  const small = await smallTreeFiles({ root, overrides, signal, upTo })
  if (small) return { files: small, engine: 'js' }
  const files: string[] = []
  // rg starts in the folder through a verified fd (open-beneath.ts), so a link swapped in for it cannot move it.
  const run = await withDir(root, root, false, (dir) =>
    runRipgrep(rg, ['--files', '--null', ...RG_BASE_ARGS, '--glob', '!.git', '--', '.'], {
      cwd: dir.at('.'),
      signal,
      separator: '\0',
      onLine: (line) => {
        if (line) files.push(line.startsWith('./') ? line.slice(2) : line)
        return files.length < LIST_FILES_CAP
      }
    })
  )
  if (run.code === 2 && files.length === 0) throw new Error(`ripgrep failed: ${run.stderr || 'unknown error'}`)
  return { files, engine: 'rg' }
}
