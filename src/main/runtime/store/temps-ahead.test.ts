import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { writeFileAtomic } from './atomic-file'
import { TempsAhead } from './temps-ahead'

const dirs: string[] = []
const folder = async () => {
  const d = await mkdtemp(join(tmpdir(), 'temps-ahead-'))
  dirs.push(d)
  return d
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

/** Resolves once `ahead` has `n` temps ready (it makes them in the background). */
async function readyTemps(d: string, n: number): Promise<string[]> {
  for (let i = 0; i < 200; i++) {
    const temps = (await readdir(d)).filter((f) => f.startsWith('.ahead.'))
    if (temps.length >= n) return temps
    await new Promise((r) => setTimeout(r, 5))
  }
  throw new Error(`no ${n} temps made ahead in ${d}`)
}

describe('temps made ahead for atomic writes', () => {
  it('a write uses a temp made ahead: the file is whole, that temp is gone, and the next one is being made', async () => {
    const d = await folder()
    const ahead = new TempsAhead(d, 1)
    ahead.fill()
    const [made] = await readyTemps(d, 1)
    await writeFile(join(d, 'state.json'), '{"old":true}\n')
    await writeFileAtomic(join(d, 'state.json'), '{"new":true}\n', { fsync: false, ahead })
    expect(await readFile(join(d, 'state.json'), 'utf8')).toBe('{"new":true}\n')
    expect(await readdir(d)).not.toContain(made)
    const [next] = await readyTemps(d, 1)
    expect(next).not.toBe(made)
    // A write that fsyncs goes through one as well.
    await writeFileAtomic(join(d, 'state.json'), 'x'.repeat(70_000), { ahead })
    expect((await readFile(join(d, 'state.json'), 'utf8')).length).toBe(70_000)
    await ahead.dispose()
    expect(await readdir(d)).toEqual(['state.json'])
  })

  it('a write that asks for no refill uses the temp made ahead and leaves no new one; the next write makes its own', async () => {
    const d = await folder()
    const ahead = new TempsAhead(d, 1)
    ahead.fill()
    await readyTemps(d, 1)
    await writeFileAtomic(join(d, 'session.json'), '{"done":true}\n', { fsync: false, ahead, refill: false })
    expect(await readFile(join(d, 'session.json'), 'utf8')).toBe('{"done":true}\n')
    // Nothing is being made: a while later the folder still holds only the file.
    await new Promise((r) => setTimeout(r, 50))
    expect(await readdir(d)).toEqual(['session.json'])
    // A later write still lands whole, through a temp of its own, and refills as usual.
    await writeFileAtomic(join(d, 'session.json'), '{"again":true}\n', { fsync: false, ahead })
    expect(await readFile(join(d, 'session.json'), 'utf8')).toBe('{"again":true}\n')
    await ahead.dispose()
    expect(await readdir(d)).toEqual(['session.json'])
  })

  it('with none ready, or for a file in another folder or of another mode, the write makes its own temp', async () => {
    const d = await folder()
    const other = await folder()
    const ahead = new TempsAhead(d, 1)
    await writeFileAtomic(join(d, 'a'), 'one', { ahead })
    ahead.fill()
    await readyTemps(d, 1)
    await writeFileAtomic(join(other, 'b'), 'two', { ahead })
    await writeFileAtomic(join(d, 'c'), 'three', { ahead, mode: 0o600 })
    expect(await readyTemps(d, 1)).toHaveLength(1)
    expect([await readFile(join(d, 'a'), 'utf8'), await readFile(join(other, 'b'), 'utf8'), await readFile(join(d, 'c'), 'utf8')]).toEqual([
      'one',
      'two',
      'three'
    ])
    await ahead.dispose()
    expect((await readdir(d)).sort()).toEqual(['a', 'c'])
  })

  it('a temp whose folder went away is dropped: the write makes the folder and its own temp, and loses nothing', async () => {
    const d = await folder()
    const sub = join(d, 'agents')
    await writeFileAtomic(join(sub, 'seed'), '0')
    const ahead = new TempsAhead(sub, 1)
    ahead.fill()
    await readyTemps(sub, 1)
    await rm(sub, { recursive: true })
    await writeFileAtomic(join(sub, 'state.json'), 'kept', { ahead })
    expect(await readFile(join(sub, 'state.json'), 'utf8')).toBe('kept')
    await ahead.dispose()
  })

  it('temps a killed process left in the folder are removed; a live writer\u2019s are not', async () => {
    const d = await folder()
    // pid 2^22+1 is above Linux's pid_max on this machine's kind: no process has it.
    const dead = `.state.json.${2 ** 22 + 1}.0a1b2c3d.tmp`
    const live = `.state.json.${process.ppid}.0a1b2c3d.tmp`
    await writeFile(join(d, dead), '')
    await writeFile(join(d, live), '')
    const ahead = new TempsAhead(d, 1)
    ahead.fill()
    await readyTemps(d, 1)
    const names = await readdir(d)
    expect(names).not.toContain(dead)
    expect(names).toContain(live)
    await ahead.dispose()
    expect(await readdir(d)).toEqual([live])
  })

  it('dispose while a temp is being made leaves none behind, and no temp is made after', async () => {
    const d = await folder()
    const ahead = new TempsAhead(d, 3)
    ahead.fill()
    await ahead.dispose()
    ahead.fill()
    expect(ahead.take()).toBeNull()
    await new Promise((r) => setTimeout(r, 30))
    expect(await readdir(d)).toEqual([])
  })
})
