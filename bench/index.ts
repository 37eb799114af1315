// `npm run bench`: prints figures; never passes or fails on time.
import { benchCliStart } from './cli-start'
import { benchFanOut } from './fan-out'

const root = process.cwd()
await benchFanOut()
await benchCliStart(root)
