// Loader messages name keys and values in `backticks`: show those as code.
import { Fragment } from 'react'

export function Prose({ text }: { text: string }) {
  const parts = text.split(/(`[^`\n]+`)/)
  return (
    <>
      {parts.map((part, i) =>
        part.length > 2 && part.startsWith('`') && part.endsWith('`') ? <code key={i}>{part.slice(1, -1)}</code> : <Fragment key={i}>{part}</Fragment>
      )}
    </>
  )
}
