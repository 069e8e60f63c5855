// Lint: typescript-eslint with type information, plus the layer rules that keep
// `sync/` and `db/` free of Electron and the renderer free of Node.
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const electronImport = {
  name: 'electron',
  message: 'Only main/ and preload/ may import electron: sync/ and db/ run in plain Node.',
};

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'release/**', 'node_modules/**', 'coverage/**', 'artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'bin/*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    files: ['sync/**/*.ts', 'db/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [electronImport], patterns: ['**/main/**', '**/preload/**', '**/renderer/**'] },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [
            { group: ['node:*'], message: 'The renderer has no Node: talk to main through the bridge.' },
            {
              group: ['**/sync/**', '**/db/**', '**/main/**'],
              allowTypeImports: true,
              message: 'The renderer reaches sync and db only through the bridge (type imports are fine).',
            },
          ],
        },
      ],
    },
  },
  {
    // One gate in main, one bridge in preload: raw IPC objects go to nothing else
    // (main/index.ts hands ipcMain to the gate; preload/index.ts builds window.svc).
    files: ['main/**/*.ts', 'preload/**/*.ts'],
    ignores: ['main/index.ts', 'preload/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              importNames: ['ipcMain', 'ipcRenderer'],
              message:
                'Register handlers through main/ipc/gate.ts; the renderer talks through preload/bridge.ts.',
            },
          ],
        },
      ],
    },
  },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
  {
    // Tests, the emulator, benchmarks and command-line entry points print on purpose.
    files: ['test/**/*.ts', '**/*.test.ts', 'sync/cli/**/*.ts', 'bin/**/*.js'],
    rules: { 'no-console': 'off' },
  },
);
