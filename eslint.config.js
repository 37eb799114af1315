import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

// Layering (see DESIGN.md): the runtime and shared code never touch electron; shared code is pure;
// the renderer may import only src/shared. test/layering.test.ts checks the same rules by walking the tree.
const noElectron = { name: 'electron', message: 'The runtime and shared code must stay headless: no electron imports.' }
const nodeOnlyInMain = {
  group: ['node:*', 'fs', 'path', 'child_process', 'os'],
  message: 'This layer runs without Node built-ins.'
}

// One way to start a program and one way to run git (DESIGN.md, docs/sandbox.md): node:child_process only in
// security/spawn.ts (it gives every child the credential-free environment), git only through worktrees/git.ts
// (which neutralises the repository's config). test/layering.test.ts checks the same. Test fixtures are exempt.
const oneWayToSpawn = {
  files: ['src/**/*.ts', 'src/**/*.tsx'],
  ignores: ['src/**/*.test.ts', 'src/**/testing/**', 'src/main/runtime/tools/search-fixture.ts', 'src/main/runtime/security/spawn.ts'],
  rules: {
    'no-restricted-syntax': [
      'error',
      ...['ImportDeclaration', 'ImportExpression', 'ExportNamedDeclaration', 'ExportAllDeclaration'].flatMap((node) => [
        {
          selector: `${node}[source.value=/^(node:)?child_process$/]`,
          message: 'Start programs through security/spawn.ts (spawnChild, runChild): it strips credentials from their environment.'
        },
        { selector: `${node}[source.value=/^simple-git/]`, message: "Run git through worktrees/git.ts (runGit): it neutralises the repository's config." }
      ]),
      {
        selector: "CallExpression[callee.name='require'][arguments.0.value=/^(node:)?child_process$|^simple-git/]",
        message: 'Start programs through security/spawn.ts, git through worktrees/git.ts.'
      }
    ]
  }
}

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'e2e/artifacts/**', 'test-results/**', '.fanout-data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      'no-control-regex': 'off'
    }
  },
  {
    files: ['src/main/runtime/**', 'src/main/cli/**', 'src/main/web/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [{ group: ['**/renderer/**', '**/ipc/**'], message: 'The runtime is imported by adapters, never the other way round.' }]
        }
      ]
    }
  },
  {
    // Below the runtime's top: only host, agent-editor and setup.ts assemble sessions (test/layering.test.ts
    // also checks this, and that the runtime has no import cycle).
    files: ['src/main/runtime/**'],
    ignores: ['src/main/runtime/{orchestration,host,agent-editor}/**', 'src/main/runtime/setup.ts', 'src/main/runtime/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            { group: ['**/renderer/**', '**/ipc/**'], message: 'The runtime is imported by adapters, never the other way round.' },
            {
              group: ['**/orchestration', '**/orchestration/**', '**/host', '**/host/**'],
              message: "A back edge: orchestration and host are the runtime's top; move what is needed to a lower module."
            }
          ]
        }
      ]
    }
  },
  oneWayToSpawn,
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [nodeOnlyInMain, { group: ['**/main/**', '**/renderer/**', '**/preload/**'], message: 'src/shared imports nothing from other layers.' }]
        }
      ]
    }
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': [
        'error',
        { paths: [noElectron], patterns: [nodeOnlyInMain, { group: ['**/main/**', '**/preload/**'], message: 'The renderer imports only src/shared.' }] }
      ]
    }
  }
)
