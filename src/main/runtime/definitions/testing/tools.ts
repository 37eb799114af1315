// For the definitions tests: the tools every session offers, in the order a session lists them; each test
// adds the ones its case is about.
export const CORE_TOOLS: readonly string[] = ['Agent', 'Bash', 'Read', 'Write', 'Edit', 'Glob', 'Grep']
