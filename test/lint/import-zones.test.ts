// The layer rules of eslint.config.js, held by planting an import in each
// zone: a rule that silently stopped matching (a renamed folder, a pattern
// that no longer applies) would otherwise let an arrow back up through.
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

// Only the zone rule runs, without type information: planted files need not exist.
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
});

async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

describe('product code keeps to its zone', () => {
  test.each([
    ['sync/engine/planted.ts', "import '../push/testing/push-fixture';", 'testing/'],
    ['db/planted.ts', "import '../sync/engine/sync-engine';", 'db/ may import protocol/ only'],
    ['db/planted.ts', "import '../services/updates/update-policy';", 'db/ may import protocol/ only'],
    [
      'sync/engine/planted.ts',
      "import '../../services/notify/notifier';",
      'sync/ may import db/ and protocol/ only',
    ],
    [
      'services/updates/planted.ts',
      "import '../../main/updates/app-updates';",
      'services/ may import sync/, db/',
    ],
    ['services/notify/planted.ts', "import '../../sync/pull/testing/pull-fixture';", 'testing/'],
    ['services/links/planted.ts', "import 'electron';", 'Only main/ and preload/ may import electron'],
    ['protocol/planted.ts', "import '../db/mirror';", 'protocol/ holds the wire schemas'],
    ['ipc/planted.ts', "import '../main/ipc/gate';", 'ipc/ is the contract'],
    ['sync/events/planted.ts', "import '../../ipc/contract';", 'sync/ may import db/ and protocol/ only'],
    ['emulator/planted.ts', "import '../sync/api/api-client';", 'server of the contract'],
    ['main/planted.ts', "import '../renderer/src/app';", 'do not import it'],
    ['main/ipc/planted.ts', "import '../../sync/pull/testing/pull-fixture';", 'testing/'],
    ['renderer/src/planted.ts', "import 'node:fs';", 'The renderer has no Node'],
    ['renderer/src/planted.ts', "import '../../db/mirror';", 'only through the bridge'],
    ['sync/planted.ts', "import 'electron';", 'Only main/ and preload/ may import electron'],
    ['renderer/src/goals/planted.tsx', "import '../sprints/sprint-view';", 'not another feature'],
    ['renderer/src/ui/planted.tsx', "import '../task-detail/task-editor';", 'not another feature'],
    ['renderer/src/board/planted.ts', "import 'node:fs';", 'The renderer has no Node'],
  ])('%s: %s is refused', async (file, code, words) => {
    const found = await refusals(file, code);
    expect(found).toEqual([expect.stringContaining(words)]);
  });

  test.each([
    ['sync/engine/planted.ts', "import '../../db/mirror';"],
    ['main/planted.ts', "import '../sync/engine/sync-engine';"],
    ['main/planted.ts', "import '../services/notify/notifier';"],
    ['main/ipc/planted.ts', "import '../../ipc/contract';"],
    ['renderer/src/planted.ts', "import type { SvcBridge } from '../../ipc/contract';"],
    ['services/notify/planted.ts', "import '../../sync/engine/sync-engine';"],
    ['renderer/src/planted.ts', "import type { Mirror } from '../../db/mirror';"],
    ['sync/push/planted.test.ts', "import './testing/push-fixture';"],
    ['renderer/src/goals/planted.tsx', "import '../ui/progress-meter';"],
    ['renderer/src/goals/planted.tsx', "import './goal-item';"],
    ['renderer/src/app/planted.tsx', "import '../sprints/sprint-view';"],
  ])('%s: %s is allowed', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});
