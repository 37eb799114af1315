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
