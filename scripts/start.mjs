// `npm start`: opens the Electron app. Where Electron cannot start (no binary, no display, or it exits
// at once), says so in one plain sentence and starts browser mode instead, printing its URL.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const cwd = process.env.INIT_CWD ?? process.cwd()
const passThrough = process.argv.slice(2)

function electronBinary() {
  const pkg = join(root, 'node_modules/electron')
  const pathFile = join(pkg, 'path.txt')
  const resolveBin = () => (existsSync(pathFile) ? join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim()) : null)
  let bin = resolveBin()
  if (bin && existsSync(bin)) return { bin }
  if (!existsSync(join(pkg, 'install.js'))) return { why: 'the electron package is not installed' }
  // Electron downloads its binary on first launch; give that one bounded try.
  const r = spawnSync(process.execPath, [join(pkg, 'install.js')], { stdio: 'ignore', timeout: 120_000 })
  bin = resolveBin()
  if (r.status === 0 && bin && existsSync(bin)) return { bin }
  return { why: 'its binary is not installed and could not be downloaded' }
}

function browserMode(reason) {
  console.log(`Electron cannot start here (${reason}), so Fanout is starting in browser mode instead.`)
  const child = spawn(process.execPath, [join(root, 'bin/fanout'), 'web', '--cwd', cwd, ...passThrough], { stdio: 'inherit' })
  child.on('exit', (code) => process.exit(code ?? 0))
}

if (!existsSync(join(root, 'out/main/index.js'))) spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' })

const noDisplay = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY
const found = noDisplay ? { why: 'there is no display' } : electronBinary()
if (!found.bin) browserMode(found.why)
else {
  const started = Date.now()
  const child = spawn(found.bin, [root, `--fanout-cwd=${cwd}`, ...passThrough], { stdio: ['inherit', 'inherit', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d) => {
    stderr += d
    process.stderr.write(d)
  })
  child.on('error', (err) => browserMode(`it failed to launch: ${err.message}`))
  child.on('exit', (code) => {
    if (code !== 0 && Date.now() - started < 5000) browserMode(`it exited at once${stderr ? `: ${stderr.trim().split('\n')[0]}` : ''}`)
    else process.exit(code ?? 0)
  })
}
