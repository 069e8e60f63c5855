// Lint: typescript-eslint with type information, plus the layer rules (STYLE.md):
// `protocol/` imports nothing of ours; `db/` may import `protocol/`; `sync/` may
// import `db/` and `protocol/`; `services/` (app services beside syncing) may
// import `sync/`, `db/` and `protocol/`; `ipc/` (the contract between main, the
// preload and the renderer) may import `services/`, `sync/`, `db/` and
// `protocol/` and is imported by those three only; the emulator only `protocol/`; `main/`
// all of them but the renderer; none of them but main and preload Electron; the
// renderer no Node; and no product code imports `test/` or a `testing/` module
// (fixtures that start the emulator: exempt from the zones as test code, so they
// must not be reachable from what ships).
// In the renderer, a feature folder is a view: it imports the shared folders
// (ui/, data/, vocabulary/, store/, bridge/, problems/) and itself, never another
// feature; the shared folders import no feature. Only app/ (the shell) and
// command-palette/ (which commands every feature) compose features.
// Import cycles, type-only ones included, are refused by dpdm, which `npm run lint`
// runs before eslint (import-x/no-cycle would let type-only cycles through).
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const electronImport = {
  name: 'electron',
  message: 'Only main/ and preload/ may import electron: services/, sync/ and db/ run in plain Node.',
};

/** Test code: free to import the emulator and test/ support. */
const TEST_CODE = ['**/*.test.ts', '**/*.test.tsx', '**/testing/**'];

/** What no product code imports: the test tree and test fixtures. */
const TEST_ONLY = {
  group: ['**/test/**', '**/testing/**'],
  message: 'Product code never imports test/ or a testing/ module (test fixtures start servers).',
};

/** A folder that may import only the layers below it (and never test code). */
function layer(folder, forbidden, why) {
  return {
    files: [`${folder}/**/*.ts`],
    ignores: TEST_CODE,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [{ group: forbidden, message: why }, TEST_ONLY],
        },
      ],
    },
  };
}

/** The renderer's layer: no Node, and services, sync and db only through the bridge. */
const RENDERER_LAYER = [
  { group: ['node:*'], message: 'The renderer has no Node: talk to main through the bridge.' },
  {
    group: ['**/services/**', '**/sync/**', '**/db/**', '**/main/**'],
    allowTypeImports: true,
    message: 'The renderer reaches services, sync and db only through the bridge (type imports are fine).',
  },
];

/** What the renderer's product code may not import: its layer's refusals and test code. */
const RENDERER_PATTERNS = [...RENDERER_LAYER, TEST_ONLY];

/** The renderer's feature folders: screens and panels, each a view of the shared folders. */
const RENDERER_FEATURES = [
  'board',
  'goals',
  'links',
  'milestones',
  'pending-changes',
  'sign-in',
  'sprints',
  'status-bar',
  'sync-center',
  'task-detail',
  'task-list',
  'triage',
];

/** What features share: components, reads through the bridge, words, stores, the bridge, problems. */
const RENDERER_SHARED = ['ui', 'data', 'vocabulary', 'store', 'bridge', 'problems'];

/** A renderer folder that may import no feature folder but its own (tests may, to check they agree). */
function featureZone(folder) {
  return {
    files: [`renderer/src/${folder}/**/*.{ts,tsx}`],
    ignores: TEST_CODE,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [electronImport],
          patterns: [
            ...RENDERER_PATTERNS,
            {
              group: RENDERER_FEATURES.filter((feature) => feature !== folder).map(
                (feature) => `../${feature}/*`,
              ),
              message:
                'A feature imports ui/, data/, vocabulary/, store/, bridge/, problems/ and itself, not another feature; only app/ and command-palette/ compose features.',
            },
          ],
        },
      ],
    },
  };
}

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
  layer('protocol', ['../**'], 'protocol/ holds the wire schemas and imports nothing of ours.'),
  layer(
    'db',
    [
      '**/sync/**',
      '**/services/**',
      '**/ipc/**',
      '**/emulator/**',
      '**/main/**',
      '**/preload/**',
      '**/renderer/**',
    ],
    'db/ may import protocol/ only (and never test/).',
  ),
  layer(
    'sync',
    ['**/services/**', '**/ipc/**', '**/emulator/**', '**/main/**', '**/preload/**', '**/renderer/**'],
    'sync/ may import db/ and protocol/ only (and never test/).',
  ),
  layer(
    'services',
    ['**/ipc/**', '**/emulator/**', '**/main/**', '**/preload/**', '**/renderer/**'],
    'services/ may import sync/, db/ and protocol/ only (and never test/).',
  ),
  layer(
    'ipc',
    ['**/emulator/**', '**/main/**', '**/preload/**', '**/renderer/**'],
    'ipc/ is the contract main, the preload and the renderer share: it may import services/, sync/, db/ and protocol/ only.',
  ),
  layer(
    'emulator',
    ['**/sync/**', '**/db/**', '**/ipc/**', '**/main/**', '**/preload/**', '**/renderer/**'],
    'The emulator is a server of the contract: it may import protocol/ only (and never test/).',
  ),
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { paths: [electronImport], patterns: RENDERER_PATTERNS }],
    },
  },
  ...[...RENDERER_FEATURES, ...RENDERER_SHARED].map(featureZone),
  {
    // The renderer's own tests keep its layer and may use its testing/ helpers (the fake bridge).
    files: ['renderer/**/*.test.{ts,tsx}', 'renderer/**/testing/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [electronImport], patterns: RENDERER_LAYER }],
    },
  },
  {
    // One gate in main, one bridge in preload: raw IPC objects go to nothing else
    // (main/index.ts hands ipcMain to the gate; preload/index.ts builds window.svc).
    files: ['main/**/*.ts', 'preload/**/*.ts'],
    ignores: ['main/index.ts', 'preload/index.ts', ...TEST_CODE],
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
          patterns: [
            {
              group: ['**/renderer/**'],
              message:
                'main/ and preload/ serve the renderer; they do not import it (the contract they share is in ipc/).',
            },
            TEST_ONLY,
          ],
        },
      ],
    },
  },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
  {
    // Tests, benchmarks and command-line entry points print on purpose.
    files: ['test/**/*.ts', '**/*.test.ts', 'sync/cli/**/*.ts', 'emulator/cli.ts', 'bin/**/*.js'],
    rules: { 'no-console': 'off' },
  },
);
