// Electron entry: a hardened window over the runtime. Kept thin; the wiring is in ./ipc, the runtime
// behind createRuntimeHost.
import { createRuntimeHost } from './runtime/host'
import { cwdFromArgv, startApp } from './ipc/start-app'

startApp({ createHost: createRuntimeHost, cwd: cwdFromArgv(process.argv, process.cwd()), outDir: __dirname })
