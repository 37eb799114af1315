// The conflict preview as a small matrix: a row per agent with work to land, its column against the current
// branch, then one per other agent. A cell says whether the two merge cleanly, and which files both touched
// (the tooltip and the list under the matrix name them). Words and symbols, never color alone.
import type { MergePreview, PreviewPair } from '../../../shared/review'
import { AgentLabel } from './agent-label'

function pairOf(p: MergePreview, a: string, b: string): PreviewPair | undefined {
  return p.pairs.find((x) => (x.a === a && x.b === b) || (x.a === b && x.b === a))
}

function Cell({ pair }: { pair: PreviewPair | undefined }) {
  if (!pair)
    return (
      <td className="matrix-self" aria-label="same agent">
        —
      </td>
    )
  if (!pair.result.clean) {
    return (
      <td className="matrix-conflict" title={`Conflict in ${pair.result.conflicts.join(', ')}`} data-testid="matrix-cell" data-verdict="conflict">
        ✕ conflict
      </td>
    )
  }
  if (pair.overlap.length) {
    return (
      <td className="matrix-shared" title={`Both changed ${pair.overlap.join(', ')}; they merge cleanly`} data-testid="matrix-cell" data-verdict="shared">
        ✓ {pair.overlap.length} shared
      </td>
    )
  }
  return (
    <td className="matrix-clean" title="No file in common" data-testid="matrix-cell" data-verdict="clean">
      ✓
    </td>
  )
}

export function PreviewMatrix({ preview, sessionId }: { preview: MergePreview; sessionId: string }) {
  const into = preview.checkout.branch ?? 'HEAD'
  const agents = preview.agents
  const conflicts = preview.pairs.filter((p) => !p.result.clean)
  const shared = preview.pairs.filter((p) => p.result.clean && p.overlap.length)
  const againstHead = agents.filter((a) => !a.againstHead.clean)
  const name = (id: string) => agents.findIndex((a) => a.agentId === id) + 1
  return (
    <div className="preview-matrix-wrap">
      <table className="preview-matrix" data-testid="preview-matrix">
        <thead>
          <tr>
            <th scope="col" className="matrix-corner">
              Agent
            </th>
            <th scope="col">
              vs <code>{into}</code>
            </th>
            {agents.map((a, i) => (
              <th scope="col" key={a.agentId} title={a.branch}>
                {i + 1}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {agents.map((a, i) => (
            <tr key={a.agentId} data-agent-id={a.agentId}>
              <th scope="row" className="matrix-agent">
                <span className="matrix-num">{i + 1}</span>
                <AgentLabel sessionId={sessionId} agentId={a.agentId} fallbackType={a.agentType} />
                <span className="matrix-files muted small">
                  {a.files.length} file{a.files.length === 1 ? '' : 's'}
                </span>
              </th>
              {a.againstHead.clean ? (
                <td className="matrix-clean" title={`Merges cleanly into ${into}`} data-testid="matrix-head" data-verdict="clean">
                  ✓ clean
                </td>
              ) : (
                <td
                  className="matrix-conflict"
                  title={`Conflicts with ${into} in ${a.againstHead.conflicts.join(', ')}`}
                  data-testid="matrix-head"
                  data-verdict="conflict"
                >
                  ✕ conflict
                </td>
              )}
              {agents.map((b) => (
                <Cell key={b.agentId} pair={a.agentId === b.agentId ? undefined : pairOf(preview, a.agentId, b.agentId)} />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {(conflicts.length > 0 || shared.length > 0 || againstHead.length > 0) && (
        <ul className="preview-notes small" data-testid="preview-notes">
          {againstHead.map((a) => (
            <li key={a.agentId} className="conflict">
              {name(a.agentId)} conflicts with <code>{into}</code> in {a.againstHead.conflicts.join(', ')}
            </li>
          ))}
          {conflicts.map((p) => (
            <li key={`${p.a}-${p.b}`} className="conflict">
              {name(p.a)} and {name(p.b)} conflict in{' '}
              {p.result.conflicts.map((f) => (
                <code key={f}>{f}</code>
              ))}
            </li>
          ))}
          {shared.map((p) => (
            <li key={`${p.a}-${p.b}`}>
              {name(p.a)} and {name(p.b)} both changed{' '}
              {p.overlap.map((f) => (
                <code key={f}>{f}</code>
              ))}{' '}
              — they merge cleanly
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
