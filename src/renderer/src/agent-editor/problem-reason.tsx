// A load problem's reason as the editor says it, in the banner and the Save anyway dialog: the loader's
// words, and where a form field's value is the cause, that field as a link that shows it in the form.
import { editorUi } from './editor-store'
import type { FieldFix, LoadProblem } from './load-problem'
import { Prose } from './prose'

/** A form field named in a problem ("fill in Description"): shows it in the form and focuses it. */
function FieldLink({ fix, onShow }: { fix: FieldFix; onShow?: () => void }) {
  return (
    <button
      type="button"
      className="btn-link ae-field-link"
      onClick={() => (onShow?.(), editorUi.showField(fix.field))}
      title={`Show ${fix.label} in the form`}
      data-testid="problem-field-link"
    >
      {fix.label}
    </button>
  )
}

/** The reason, and its fix where the form has one: "description is required — fill in Description". */
export function ProblemReason({ problem, onShow, fixSuffix = '' }: { problem: LoadProblem; onShow?: () => void; fixSuffix?: string }) {
  return (
    <>
      <Prose text={problem.message} />
      {problem.fix && (
        <>
          {' — '}
          {problem.fix.verb} <FieldLink fix={problem.fix} onShow={onShow} />
          {fixSuffix}
        </>
      )}
    </>
  )
}
