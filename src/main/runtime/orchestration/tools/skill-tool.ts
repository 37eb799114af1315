// The Skill tool: the main agent (and any agent whose tools allow it) loads a skill's instructions into its
// turn by name, from the project's, the user's and the plugins' skills (context/skill-index.ts), as with
// Claude Code's Skill tool. Its description lists the skills with their one-line descriptions; the call returns
// the whole SKILL.md body (with `$ARGUMENTS` replaced by `args`) and the folder its files are relative to.
import { z } from 'zod'
import { parseFrontmatter } from '../../context'
import { formatSkillListing, unknownSkills, type SkillEntry } from '../../context/skill-index'
import { readConfigFile } from '../../store/read-config'
import { substituteArguments } from '../../commands/arguments'
import { defineTool, type Tool, toolInput } from '../../tools/define-tool'

export const SKILL_TOOL_NAME = 'Skill'

const schema = toolInput('Skill', () =>
  z
    .object({
      skill: z
        .string()
        .trim()
        .min(1, 'name the skill, as the listing spells it')
        .describe('The name of a skill from the list in this description (plugin skills are plugin:name). Do not guess names.'),
      args: z.string().optional().describe('Optional arguments for the skill')
    })
    .strict()
)

function skillToolDescription(skills: readonly SkillEntry[]): string {
  const head = `Load a skill: a packaged set of instructions the user or project has set up for a kind of task (deploy steps, a review checklist, a repo-specific workflow). When the task at hand is one a listed skill covers, call this first: the skill's instructions come back as the result, for you to follow in place of your default approach. Users may also ask for one by name (/name).`
  return `${head}\n\nThe following skills are available:\n${formatSkillListing(skills)}\n\nOnly names from this list are valid.`
}

/**
 * `skills()` is read at each call, so a skill added while the session runs is found after a reload. Made only
 * when the model may load at least one (orchestration/tools/session-tools.ts).
 */
export function createSkillTool(skills: () => readonly SkillEntry[]): Tool {
  return defineTool({
    name: SKILL_TOOL_NAME,
    description: skillToolDescription(skills().filter((s) => s.modelInvocable)),
    schema,
    readOnly: true,
    async execute(input) {
      const all = skills().filter((s) => s.modelInvocable)
      const name = input.skill.replace(/^\//, '')
      const found = all.find((s) => s.name === name)
      if (!found) {
        const near = unknownSkills([name], all)[0]?.suggestion
        return {
          content: `There is no skill named "${name}".${near ? ` Did you mean "${near}"?` : ''} ${all.length ? `Available skills: ${all.map((s) => s.name).join(', ')}.` : 'No skills are installed.'}`,
          isError: true
        }
      }
      // Only a regular, bounded file: the SKILL.md found at start may have been swapped for a pipe or a device since.
      const read = readConfigFile(found.path)
      if (!('text' in read))
        return { content: `Skill "${name}" could not be read from ${found.path}: it ${'error' in read ? read.error : 'is gone'}`, isError: true }
      const text = read.text
      const body = parseFrontmatter(text).body.trim()
      const args = input.args?.trim() ?? ''
      if (found.command) {
        // A command file, as a typed command fills it in; its `!` blocks are not run for the model (only when a person types it).
        const prompt = substituteArguments(body, args, { names: found.command.argumentNames, appendIfUnused: true })
        return {
          content: `Command "/${name}" loaded (${found.scope}). Follow its instructions now.\n\n${prompt}`,
          details: { skill: name, scope: found.scope, path: found.path },
          response: { success: true, commandName: name }
        }
      }
      const filled = body.includes('$ARGUMENTS') ? body.split('$ARGUMENTS').join(args) : body
      const content = [
        `Skill "${name}" loaded (${found.scope}). Follow its instructions now. Files it mentions are relative to its folder: ${found.dir}`,
        '',
        filled,
        ...(args && !body.includes('$ARGUMENTS') ? ['', `ARGUMENTS: ${args}`] : [])
      ].join('\n')
      return { content, details: { skill: name, scope: found.scope, path: found.path }, response: { success: true, commandName: name } }
    }
  })
}
