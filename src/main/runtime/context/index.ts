// What goes into an agent's context besides its definition: CLAUDE.md memory, its own MEMORY.md,
// preloaded skills, the environment block, and the assembled system prompt.
export { loadClaudeMd, formatClaudeMd, DEFAULT_MAX_IMPORT_DEPTH } from './claude-md'
export type { ClaudeMdEntry, ClaudeMdScope, LoadClaudeMdOptions } from './claude-md'
export { loadAgentMemory, agentMemoryPrompt, agentMemoryDir, memoryFolderName, MEMORY_FILE, MEMORY_MAX_LINES, MEMORY_MAX_BYTES } from './agent-memory'
export type { AgentMemory, AgentMemoryOptions } from './agent-memory'
export { loadSkills, formatSkills, parseFrontmatter } from './skills'
export type { LoadedSkill, LoadSkillsOptions, LoadSkillsResult } from './skills'
export { environmentDetails } from './environment'
export type { EnvironmentInput, WorktreeNote } from './environment'
export { buildSystemPrompt, SECTION_TAGS } from './system-prompt'
export type { SystemPromptParts } from './system-prompt'
export { findRepoRoot, projectRootOf } from './project-root'
