// "Every file under a root that a search should see": `rg --files` when available, the JS walker otherwise,
// both with hidden files, .gitignore honoured and `.git` skipped. Results are root-relative, forward-slash.
import { OverrideGlobs } from './ignore-rules'
import { walkFiles } from './file-walk'
import { runRipgrep } from './ripgrep'

export const RG_BASE_ARGS = ['--no-config', '--hidden', '--no-require-git']
/** A Glob rooted at / or a home directory must not hold millions of paths in memory. */
export const LIST_FILES_CAP = 250_000

export async function listFiles(root: string, rg: string | null, signal?: AbortSignal): Promise<string[]> {
  if (!rg) return walkFiles({ root, overrides: new OverrideGlobs(['!.git']), signal, maxFiles: LIST_FILES_CAP })
  const files: string[] = []
  const run = await runRipgrep(rg, ['--files', ...RG_BASE_ARGS, '--glob', '!.git', '--', '.'], {
    cwd: root,
    signal,
    onLine: (line) => {
      if (line) files.push(line.startsWith('./') ? line.slice(2) : line)
      return files.length < LIST_FILES_CAP
    }
  })
  if (run.code === 2 && files.length === 0) throw new Error(`ripgrep failed: ${run.stderr || 'unknown error'}`)
  return files
}
