// Which tool rows are open. Kept outside the components so a virtualized row that scrolls away and
// back keeps its state.
import { create } from 'zustand'

export const useOpenRows = create<{ open: Record<string, true>; toggle(id: string): void; show(id: string): void }>()((set) => ({
  open: {},
  show: (id) => set((s) => (s.open[id] ? s : { open: { ...s.open, [id]: true } })),
  toggle: (id) =>
    set((s) => {
      const open = { ...s.open }
      if (open[id]) delete open[id]
      else open[id] = true
      return { open }
    })
}))
