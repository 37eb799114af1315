// The checkout the e2e suite runs from, fixed when the suite loads. Not process.cwd() read later: the runtime
// the specs host in this process moves its working directory while it wraps a Bash command in the sandbox
// (security/sandbox/sandbox-runtime.ts), so a spec that read it then got the agent's folder instead.
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '')
