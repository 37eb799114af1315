// Slash commands: command files and skills typed as `/name args`, and the built-ins a headless run answers.
export { parseCommand, readCommandFile, ruleList, type CommandDefinition, type CommandSource } from './command-file'
export { loadCommands, type CommandFolder, type LoadCommandsOptions } from './load-commands'
export { loadFolderCommands, type FolderCommandsOptions } from './folder-commands'
export { escapeBang, splitArguments, substituteArguments } from './arguments'
export { findShellBlocks, type ShellBlock } from './shell-blocks'
export { commandBlock, expandCommand, fileMentions, type CommandEffects, type Expansion } from './expand'
export { answerBuiltin, BUILTIN_COMMANDS, isBuiltin, type BuiltinAnswer, type BuiltinFacts } from './builtins'
export { parseSlash, resolvePrompt, type Resolution } from './resolve'
