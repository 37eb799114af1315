import { it } from 'vitest'
import { runSide, conversation } from './harness'
import { REQUEST_SCENARIO } from './scenarios'
it('dbg', async () => {
  for (const args of [[], ['--effort', 'high']]) for (const side of ['claude-code', 'fanout'] as const) {
    const r = await runSide(side, { ...REQUEST_SCENARIO, args: [...REQUEST_SCENARIO.args!, ...args] })
    for (const q of r.requests) { const t = conversation(q); console.log(side, args.join(' '), t.includes('MAIN TASK') ? 'main' : t.includes('PLAIN') ? 'plain' : t.includes('CAREFUL') ? 'careful' : 'other', q.body.model, q.body.max_tokens, JSON.stringify(q.body.thinking), JSON.stringify(q.body.output_config)) }
  }
}, 120000)
