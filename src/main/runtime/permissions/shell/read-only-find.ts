// find, read-only: starting points (files it walks), then an expression made only of tests and printing
// actions from the list below. -exec/-execdir/-ok/-okdir (run programs), -delete, -fprint/-fprint0/-fprintf/
// -fls (write files), -L/-follow (follow every symlink out of the tree) and anything unknown are not read-only.
import type { CommandCheck } from './command-check'

const NO_ARG = new Set([
  '-print',
  '-print0',
  '-prune',
  '-empty',
  '-readable',
  '-writable',
  '-executable',
  '-true',
  '-false',
  '-depth',
  '-mount',
  '-xdev',
  '-nowarn',
  '-warn',
  '-daystart',
  '-ls',
  '-noleaf',
  '-quit',
  '-not',
  '!',
  '-a',
  '-and',
  '-o',
  '-or',
  '(',
  ')',
  ',',
  '-nouser',
  '-nogroup',
  '-ignore_readdir_race'
])
const WITH_ARG = new Set([
  '-name',
  '-iname',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-regextype',
  '-type',
  '-xtype',
  '-maxdepth',
  '-mindepth',
  '-size',
  '-mtime',
  '-mmin',
  '-atime',
  '-amin',
  '-ctime',
  '-cmin',
  '-perm',
  '-user',
  '-group',
  '-uid',
  '-gid',
  '-links',
  '-inum',
  '-used',
  '-printf',
  '-fstype',
  '-lname',
  '-ilname',
  '-newermt'
])
/** Tests whose argument is a file find reads (its times). */
const WITH_PATH = new Set(['-newer', '-anewer', '-cnewer', '-samefile'])

export const checkFind: CommandCheck = (args, env) => {
  let i = 0
  while (i < args.length && /^-[HPO]/.test(args[i].value) && !NO_ARG.has(args[i].value) && !WITH_ARG.has(args[i].value)) {
    if (!/^-(H|P|O\d?)$/.test(args[i].value)) return `the find option ${args[i].value}`
    i++
  }
  const starts = []
  while (i < args.length && !args[i].value.startsWith('-') && args[i].value !== '(' && args[i].value !== '!' && args[i].value !== ',') starts.push(args[i++])
  for (; i < args.length; i++) {
    const a = args[i]
    if (a.glob) return 'a glob in a find expression (the shell would expand it)'
    if (NO_ARG.has(a.value)) continue
    if (WITH_ARG.has(a.value)) {
      if (++i >= args.length) return `${a.value} needs a value`
      continue
    }
    if (WITH_PATH.has(a.value)) {
      if (++i >= args.length) return `${a.value} needs a file`
      const why = env.readPath(args[i])
      if (why) return why
      continue
    }
    return `the find expression ${a.value} is not on the read-only list`
  }
  for (const s of starts.length ? starts : [{ value: '.' }]) {
    const why = env.readPath(s, { recursive: true })
    if (why) return why
  }
  return null
}
