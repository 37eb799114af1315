// Several fields of a store in one subscription: the component re-renders when one of them changes, as with a
// selector a field, without a line a field.
import { useShallow } from 'zustand/react/shallow'

type UseStore<S> = <U>(selector: (state: S) => U) => U

export function usePick<S, K extends keyof S>(useStore: UseStore<S>, ...keys: K[]): Pick<S, K> {
  return useStore(useShallow((s: S) => Object.fromEntries(keys.map((k) => [k, s[k]])) as Pick<S, K>))
}
