// What stands in for something still being read: the reason it could not be, or a line saying it is being
// read (nothing, before the reading starts).
export function Pending({ error, loading, text }: { error: string | null; loading: boolean; text: string }) {
  if (error)
    return (
      <div className="inline-error" role="alert">
        {error}
      </div>
    )
  return <div className="empty-state muted">{loading ? text : ''}</div>
}
