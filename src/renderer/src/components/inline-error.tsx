// A failure said where it happened (beside the button or list that failed), read out at once: nothing when
// there is none. `as` keeps the element its place calls for (a span in a row of buttons, a p in a form).
export function InlineError({ error, as: Tag = 'div' }: { error: string | null | undefined; as?: 'div' | 'span' | 'p' }) {
  if (!error) return null
  return (
    <Tag className="inline-error" role="alert">
      {error}
    </Tag>
  )
}
