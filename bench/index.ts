// `npm run bench`: prints figures; never passes or fails on time. BENCH_ONLY=ui (or fan-out, cli, sandbox, search, long-session) runs one.
import { benchCliStart } from './cli-start'
import { benchFanOut, serveFanOut } from './fan-out'
import { benchLongSession } from './long-session'
import { benchSandbox } from './sandbox'
import { benchSearch } from './search'
import { benchUi } from './ui'

if (process.argv[2] === '--fan-out-server') {
  await serveFanOut(Number(process.argv[3]))
} else {
  const root = process.cwd()
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim())
  const wanted = (name: string) => !only || only.includes(name)
  if (wanted('fan-out')) await benchFanOut()
  if (wanted('cli')) await benchCliStart(root)
  if (wanted('sandbox')) await benchSandbox()
  if (wanted('long-session')) await benchLongSession()
  if (wanted('ui')) await benchUi(root)
  if (wanted('search')) await benchSearch()
}
