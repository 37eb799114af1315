// An agent's changed files with their line counts: the committed ones (what merging brings), then the ones
// its worktree holds but has not committed yet. The open one is marked; each opens its diff.
import { PathText } from '../components/path-text'
import type { ChangedFile } from '../../../shared/review'
import { selectFile, type OpenFile } from './review-store'

const LETTER: Record<ChangedFile['status'], { letter: string; word: string }> = {
  added: { letter: 'A', word: 'added' },
  modified: { letter: 'M', word: 'modified' },
  deleted: { letter: 'D', word: 'deleted' },
  renamed: { letter: 'R', word: 'renamed' },
  copied: { letter: 'C', word: 'copied' },
  'type-changed': { letter: 'T', word: 'type changed' }
}

export function StatusLetter({ status }: { status: ChangedFile['status'] }) {
  const s = LETTER[status]
  return (
    <span className={`file-status file-${status}`} title={s.word} aria-label={s.word}>
      {s.letter}
    </span>
  )
}

export function Counts({ file }: { file: Pick<ChangedFile, 'additions' | 'deletions' | 'binary'> }) {
  if (file.binary) return <span className="file-counts muted">binary</span>
  return (
    <span className="file-counts">
      <span className="count-add">+{file.additions}</span> <span className="count-del">−{file.deletions}</span>
    </span>
  )
}

export function FileList({
  agentId,
  files,
  uncommitted,
  open,
  label
}: {
  agentId: string
  files: ChangedFile[]
  uncommitted: boolean
  open: OpenFile | null
  label: string
}) {
  if (!files.length) return null
  return (
    <ul className="review-files" aria-label={label} data-testid={uncommitted ? 'review-uncommitted' : 'review-files'}>
      {files.map((f) => {
        const active = open?.agentId === agentId && open.path === f.path && open.uncommitted === uncommitted
        return (
          <li key={f.path}>
            <button
              className={`list-row review-file${active ? ' active' : ''}`}
              aria-current={active ? 'true' : undefined}
              onClick={() => void selectFile({ agentId, path: f.path, uncommitted })}
              data-testid="review-file"
              data-path={f.path}
            >
              <StatusLetter status={f.status} />
              <PathText path={f.path} className="review-file-path" />
              <Counts file={f} />
            </button>
            {f.oldPath && <div className="review-file-from small muted">from {f.oldPath}</div>}
          </li>
        )
      })}
    </ul>
  )
}
