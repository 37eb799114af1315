// Electron entry: a hardened window over the runtime. Kept thin; the wiring is in ./ipc, the runtime
// behind createRuntimeHost.
import { createRuntimeHost } from './runtime/host'
import { startSandboxHousekeeping } from './runtime/security/sandbox/housekeeping'
import { cwdFromArgv, startApp } from './ipc/start-app'

startApp({
  // What a crashed Fanout left in projects (the Bash sandbox's placeholders) is tidied before anything runs.
  createHost: (options) => (startSandboxHousekeeping(options.dataDir), createRuntimeHost(options)),
  cwd: cwdFromArgv(process.argv, process.cwd()),
  outDir: __dirname
})
