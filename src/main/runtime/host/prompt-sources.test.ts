// What the prompt box offers: `/` commands (the app's own and the folder's skills, with argument hints) and
// `@` files as a search sees them — .gitignore honoured, .git left out, and what the folder's Read deny rules
// protect or a link leads to outside the project not offered.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { BUILTIN_COMMANDS } from '../../../shared/prompt-commands'
import { folderCommands, folderFiles } from './prompt-sources'

let root = ''
afterEach(() => rmSync(root, { recursive: true, force: true }))

function project(files: Record<string, string>) {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'fanout-prompt-sources-')))
  const cwd = join(root, 'project')
  const home = join(root, 'home')
  mkdirSync(home, { recursive: true })
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(cwd, rel)), { recursive: true })
    writeFileSync(join(cwd, rel), text)
  }
  return { cwd, home }
}

describe('prompt sources', () => {
  it('lists the app’s built-ins, then the command files and skills with their argument hints', async () => {
    const { cwd, home } = project({
      '.claude/skills/ship/SKILL.md': '---\nname: ship\ndescription: Ships it\nargument-hint: <version>\n---\nShip.\n',
      '.claude/commands/review.md': '---\ndescription: Review the diff\nargument-hint: <pr>\n---\nReview $ARGUMENTS.\n'
    })
    const listed = await folderCommands(cwd, home)
    expect(listed.slice(0, BUILTIN_COMMANDS.length)).toEqual(BUILTIN_COMMANDS)
    expect(listed[0]).toMatchObject({ name: 'compact', source: 'builtin', argumentHint: '[what to keep]' })
    expect(listed.slice(BUILTIN_COMMANDS.length)).toEqual([
      { name: 'review', description: 'Review the diff', argumentHint: '<pr>', source: 'project' },
      { name: 'ship', description: 'Ships it', argumentHint: '<version>', source: 'project' }
    ])
  })

  it('lists files as a search sees them: ignored, protected and linked-out files are not offered', async () => {
    const { cwd, home } = project({
      'src/app.ts': 'x',
      'build/out.js': 'x',
      '.gitignore': 'build/\n',
      'secrets/token.txt': 'x',
      '.claude/settings.json': JSON.stringify({ permissions: { deny: ['Read(./secrets/**)'] } }),
      '.git/HEAD': 'ref: refs/heads/main\n'
    })
    writeFileSync(join(home, 'outside.txt'), 'x')
    symlinkSync(join(home, 'outside.txt'), join(cwd, 'link.txt'))
    const { files, complete } = await folderFiles(cwd, home)
    expect(complete).toBe(true)
    expect(files).toEqual(['.claude/settings.json', '.gitignore', 'src/app.ts'])
  })
})
