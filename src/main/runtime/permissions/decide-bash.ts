// The Bash half of decidePermission: which rules a command hits (deny and ask rules find it however it is
// dressed up; allow rules must cover every part), whether it is read-only, and which sandbox it runs in.
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import type { CommandPart } from '../../../shared/events'
import type { PathPolicy } from '../security/path-policy'
import type { SandboxLevel } from '../tools/define-tool'
import { commandVariants, matchBashPattern, parseBashCommand, shellWords, type ParsedCommand } from './bash-command'
import { bashReadOnlyVerdict } from './bash-read-only'
import { expandGlob } from './shell/glob-expand'
import { ruleAppliesToTool, type PermissionRule } from './rules'

export type { SandboxLevel }

/** Whether Bash commands can run in the OS sandbox here; when not, auto-approval asks instead. */
export type SandboxState = { available: true } | { available: false; reason: string }

const ruleIsForBash = (rule: PermissionRule): boolean => ruleAppliesToTool(rule.toolName, 'Bash')

function bashCandidates(command: string, parsed: ParsedCommand): string[] {
  return [...new Set([command.trim(), ...parsed.segments, ...parsed.nested].flatMap(commandVariants))]
}

export function bashRuleHits(rules: PermissionRule[], command: string, parsed: ParsedCommand): PermissionRule | undefined {
  const candidates = bashCandidates(command, parsed)
  return rules.find((r) => ruleIsForBash(r) && (r.content === undefined || candidates.some((c) => matchBashPattern(r.content as string, c))))
}

/** The paths a word can name: itself, its glob matches, and the path inside `rev:path` (`git show HEAD:x`). */
function namedPaths(word: string, cwd: string, home: string): string[] {
  const abs = (p: string) => (p.startsWith('~/') ? join(home, p.slice(2)) : resolve(cwd, p))
  const out = [abs(word)]
  if (/[*?[]/.test(word)) out.push(...(expandGlob(word, cwd) ?? []))
  const colon = word.indexOf(':')
  if (colon > 0 && colon < word.length - 1 && !word.includes('://')) out.push(abs(word.slice(colon + 1).replace(/^\//, '')))
  const eq = word.indexOf('=')
  if (word.startsWith('-') && eq > 0) out.push(abs(word.slice(eq + 1)))
  return out
}

/** A Bash command naming a path a Read(...) or Edit(...) deny rule protects (`cat .env`) is denied like Read would be. */
export function bashReadsDeniedPath(parsed: ParsedCommand, policy: PathPolicy): PermissionRule | undefined {
  for (const seg of [...parsed.segments, ...parsed.nested]) {
    const words = shellWords(seg) ?? seg.split(/\s+/)
    for (const w of words.slice(1)) {
      if (!w || (w.startsWith('-') && !w.includes('='))) continue
      for (const p of namedPaths(w, policy.cwd, policy.home)) {
        const hit = policy.deniedBy(p, 'read') ?? policy.deniedBy(p, 'write')
        if (hit) return hit
      }
    }
  }
  return undefined
}

/** git subcommands that print file contents from the repository (its history included, which no sandbox hides). */
const GIT_CONTENT = new Set([
  'show',
  'diff',
  'grep',
  'blame',
  'annotate',
  'cat-file',
  'whatchanged',
  'format-patch',
  'archive',
  'bundle',
  'difftool',
  'log',
  'reflog',
  'stash',
  'range-diff',
  'notes',
  'fast-export'
])

/**
 * A git command that can print protected files from the repository's objects (git show, log -p, grep HEAD…)
 * while a Read deny rule protects something in it: the sandbox hides the working tree's copy, not history.
 */
export function gitRevealsProtected(parsed: ParsedCommand, policy: PathPolicy): PermissionRule | undefined {
  for (const seg of [...parsed.segments, ...parsed.nested]) {
    const words = shellWords(seg) ?? seg.split(/\s+/)
    const at = words.findIndex((w) => w === 'git' || w.endsWith('/git'))
    if (at === -1) continue
    let i = at + 1
    let cwd = policy.cwd
    for (; i < words.length && words[i].startsWith('-'); i++) if (words[i] === '-C' && words[i + 1]) cwd = resolve(cwd, words[++i])
    if (words[i] === undefined || !GIT_CONTENT.has(words[i])) continue
    const rule = policy.protectedUnder(repoRoot(cwd), 'Bash')
    if (rule) return rule
  }
  return undefined
}

function repoRoot(dir: string): string {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d
    if (dirname(d) === d) return dir
  }
}

/** An allow rule that covers the whole command: every part allowed by a rule or read-only. */
export function bashAllowed(allow: PermissionRule[], command: string, parsed: ParsedCommand, policy: PathPolicy): PermissionRule | undefined {
  const bashRules = allow.filter(ruleIsForBash)
  const bare = bashRules.find((r) => r.content === undefined)
  if (bare) return bare
  // The user approved exactly this text: safe whatever it contains.
  const exact = bashRules.find((r) => r.content === command.trim())
  if (exact) return exact
  if (parsed.unsure.length || parsed.segments.length === 0) return undefined
  let first: PermissionRule | undefined
  for (const seg of parsed.segments) {
    const hit = bashRules.find((r) => matchBashPattern(r.content as string, seg))
    if (!hit && !bashReadOnlyVerdict(seg, policy).readOnly) return undefined
    first ??= hit
  }
  return first
}

const MULTI_COMMAND_TOOLS = new Set([
  'git',
  'npm',
  'pnpm',
  'yarn',
  'npx',
  'bun',
  'deno',
  'cargo',
  'go',
  'docker',
  'kubectl',
  'pip',
  'pip3',
  'poetry',
  'uv',
  'gh',
  'dotnet',
  'mvn',
  'gradle',
  './gradlew',
  'make'
])
const EXACT_ONLY = new Set([
  'rm',
  'sudo',
  'curl',
  'wget',
  'chmod',
  'chown',
  'dd',
  'mv',
  'kill',
  'pkill',
  'killall',
  'ssh',
  'scp',
  'eval',
  'bash',
  'sh',
  'zsh',
  'python',
  'python3',
  'node',
  'exec'
])

/** The Bash rules "allow always" would add: as narrow as is still useful. */
export function suggestBashRules(command: string, policy: PathPolicy): string[] {
  const parsed = parseBashCommand(command)
  if (parsed.unsure.length) return [`Bash(${command.trim()})`]
  const out = parsed.segments
    .filter((s) => !bashReadOnlyVerdict(s, policy).readOnly)
    .map((seg) => {
      const w = shellWords(seg)
      if (!w || !w.length || EXACT_ONLY.has(w[0])) return `Bash(${seg})`
      if (MULTI_COMMAND_TOOLS.has(w[0]) && w[1] && !w[1].startsWith('-')) {
        if (w[1] === 'run' && w[2]) return `Bash(${w[0]} run ${w[2]}:*)`
        return `Bash(${w[0]} ${w[1]}:*)`
      }
      return `Bash(${w[0]}:*)`
    })
  return [...new Set(out)]
}

/**
 * A compound command part by part (only when it has more than one part, or a part allow rules cannot vouch
 * for): what lets each run — read-only (in the sandbox), an allow rule in force, the rule "Always" would add —
 * so the person sees which parts "Always allow" covers and which run anyway.
 */
export function commandParts(command: string, allow: PermissionRule[], suggested: string[], policy: PathPolicy, sandboxed: boolean): CommandPart[] | undefined {
  const parsed = parseBashCommand(command)
  if (parsed.segments.length < 2 && !parsed.unsure.length) return undefined
  const bashRules = allow.filter(ruleIsForBash)
  return parsed.segments.map((seg): CommandPart => {
    if (parsed.unsure.length) {
      // Allow rules step aside for the whole command; only the exact text, if suggested, covers it.
      const exact = suggested.find((r) => r === `Bash(${command.trim()})`)
      return exact ? { command: seg, covered: 'rule', rule: exact } : { command: seg, covered: 'asks' }
    }
    if (sandboxed && bashReadOnlyVerdict(seg, policy).readOnly) return { command: seg, covered: 'read-only' }
    const inForce = bashRules.find((r) => r.content !== undefined && matchBashPattern(r.content, seg))
    if (inForce) return { command: seg, covered: 'allowed', rule: inForce.raw }
    const rule = suggested.find((r) => r.startsWith('Bash(') && r.endsWith(')') && matchBashPattern(r.slice(5, -1), seg))
    return rule ? { command: seg, covered: 'rule', rule } : { command: seg, covered: 'asks' }
  })
}
