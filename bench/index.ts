// `npm run bench`: prints figures; never passes or fails on time.
import { benchCliStart } from './cli-start'
import { benchFanOut, serveFanOut } from './fan-out'

if (process.argv[2] === '--fan-out-server') {
  await serveFanOut(Number(process.argv[3]))
} else {
  const root = process.cwd()
  await benchFanOut()
  await benchCliStart(root)
}
