// Remembers the window's bounds across launches in a small JSON file under userData. A missing or
// broken file, or bounds on a display that is gone, fall back to a centred default.
import { readFileSync } from 'node:fs'
import { writeFileAtomicSync } from '../runtime/store/atomic-file'
import { z } from 'zod'

const StateSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(400).max(20000),
  height: z.number().int().min(300).max(20000),
  maximized: z.boolean().default(false)
})
export type WindowState = z.infer<typeof StateSchema>

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

export function loadWindowState(file: string): WindowState | null {
  try {
    const parsed = StateSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

export function saveWindowState(file: string, state: WindowState): void {
  writeFileAtomicSync(file, JSON.stringify(state), { fsync: false })
}

/** Keeps saved bounds only if at least 100×50 px of the title area is on some display's work area. */
export function visibleOn(state: WindowState, workAreas: Rect[]): boolean {
  return workAreas.some((a) => {
    const w = Math.min(state.x + state.width, a.x + a.width) - Math.max(state.x, a.x)
    const h = Math.min(state.y + 50, a.y + a.height) - Math.max(state.y, a.y)
    return w >= 100 && h >= 50
  })
}
