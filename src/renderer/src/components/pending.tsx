// What stands in for something still being read: the reason it could not be, or a line saying it is being
// read (nothing, before the reading starts).
import { InlineError } from './inline-error'

export function Pending({ error, loading, text }: { error: string | null; loading: boolean; text: string }) {
  if (error) return <InlineError error={error} />
  return <div className="empty-state muted">{loading ? text : ''}</div>
}
