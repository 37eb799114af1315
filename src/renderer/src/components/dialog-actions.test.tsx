import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { DialogActions } from './dialog-actions'

/** The footer's buttons in order, as [text, attributes]. */
function buttons(el: React.ReactElement): Array<{ text: string; attrs: Record<string, string> }> {
  const html = renderToStaticMarkup(el)
  return [...html.matchAll(/<button([^>]*)>(.*?)<\/button>/g)].map(([, attrs, text]) => ({
    text: text.replace(/<[^>]+>/g, ''),
    attrs: Object.fromEntries([...attrs.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map(([, k, v]) => [k, v ?? '']))
  }))
}

describe('DialogActions: the one Cancel/Confirm footer', () => {
  it('puts the cancelling button first and, in a form, submits with the confirming one (Enter confirms)', () => {
    const [cancel, confirm] = buttons(<DialogActions onCancel={() => {}} confirm="Create" confirmTestId="new-agent-create" />)
    expect(cancel).toMatchObject({ text: 'Cancel', attrs: { type: 'button', class: 'btn' } })
    expect(confirm).toMatchObject({ text: 'Create', attrs: { type: 'submit', class: 'btn btn-primary', 'data-testid': 'new-agent-create' } })
    expect(confirm.attrs).not.toHaveProperty('disabled')
    expect(confirm.attrs).not.toHaveProperty('data-autofocus')
  })

  it('with its own handler the confirming button does not submit a form around it', () => {
    const [, confirm] = buttons(<DialogActions onCancel={() => {}} cancelLabel="Keep it" confirm="Delete" danger onConfirm={() => {}} />)
    expect(confirm.attrs).toMatchObject({ type: 'button', class: 'btn btn-primary ae-danger' })
  })

  it('busy: the confirming button is disabled and says it is busy; disabled alone is not busy', () => {
    const [, busy] = buttons(<DialogActions onCancel={() => {}} confirm="Open" busy />)
    expect(busy.attrs).toMatchObject({ disabled: '', 'aria-busy': 'true' })
    const [, off] = buttons(<DialogActions onCancel={() => {}} confirm="Open" disabled />)
    expect(off.attrs).toHaveProperty('disabled')
    expect(off.attrs).not.toHaveProperty('aria-busy')
  })

  it('marks only the button named to take the focus', () => {
    const safe = buttons(<DialogActions onCancel={() => {}} cancelLabel="Keep editing" focus="cancel" confirm="Discard changes" danger onConfirm={() => {}} />)
    expect(safe.map((b) => 'data-autofocus' in b.attrs)).toEqual([true, false])
    const go = buttons(<DialogActions onCancel={() => {}} focus="confirm" confirm="Merge" onConfirm={() => {}} />)
    expect(go.map((b) => 'data-autofocus' in b.attrs)).toEqual([false, true])
  })

  it('leaves out a button it is not given, and keeps a note before the buttons', () => {
    const html = renderToStaticMarkup(
      <DialogActions confirm="Save settings" className="extra">
        <span className="ok-text">Saved.</span>
      </DialogActions>
    )
    expect(html).toMatch(/^<div class="form-actions extra"><span class="ok-text">Saved.<\/span><button type="submit"/)
    expect(buttons(<DialogActions onCancel={() => {}} cancelLabel="Close" />).map((b) => b.text)).toEqual(['Close'])
  })
})
