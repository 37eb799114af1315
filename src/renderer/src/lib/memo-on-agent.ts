// memo for a view given an agent's state object: that object is new at every event of its agent (each model
// call's usage, each stream's start), while most views show a few of its fields. With 64 agents whose calls
// end together, re-rendering every tile's name and buttons for new token counts made frames of 50-90 ms.
import { memo, type FunctionComponent } from 'react'

/**
 * `component`, rendered again only when another of its props changes or one of the agent's `fields` does.
 * `fields` must name every field of the agent that the component and its children read.
 */
export function memoOnAgent<P extends { agent: object }>(component: FunctionComponent<P>, fields: readonly (keyof P['agent'])[]) {
  return memo(component, (before, after) => {
    const keys = Object.keys(after) as (keyof P)[]
    if (keys.length !== Object.keys(before).length) return false
    for (const key of keys) if (key !== 'agent' && !Object.is(before[key], after[key])) return false
    return fields.every((f) => Object.is(before.agent[f], after.agent[f]))
  })
}
