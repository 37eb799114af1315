// A form whose submit (Enter in a field, or its submit button) runs `onSubmit` in the page instead of
// navigating; what `onSubmit` returns (a promise whose errors it shows itself) is not waited on.
import { forwardRef, type ReactNode } from 'react'

export const SubmitForm = forwardRef<HTMLFormElement, { onSubmit(): unknown; className?: string; noValidate?: boolean; children: ReactNode }>(
  function SubmitForm({ onSubmit, className, noValidate, children }, ref) {
    return (
      <form
        ref={ref}
        className={className}
        noValidate={noValidate}
        onSubmit={(e) => {
          e.preventDefault()
          void onSubmit()
        }}
      >
        {children}
      </form>
    )
  }
)
