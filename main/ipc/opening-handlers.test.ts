// What the window is told while the accounts open: a real upgrade of an older
// app's mirror (the worker from source) reported through the real gate, as
// main/index.ts wires it: `app:opening` answers how far it is, each step is
// sent as `app:opening-changed`, and the end as null.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { Opening } from '../../ipc/contract';
import { MIGRATIONS_AFTER_OLDER_MIRROR, writeOlderMirror } from '../../db/testing/other-version-mirrors';
import { upgradeMirrorInWorker } from '../../sync/accounts/mirror-upgrade';
import { temporaryDirectoryPerTest } from '../../test/support/temporary-directory';
import { gateHarness } from './testing/gate-harness';
import { openingReport } from './opening-handlers';

let dir: string;
temporaryDirectoryPerTest('svc-opening-', (made) => (dir = made));

test('an upgrade is answered and told to the window step by step, upgrading then done', async () => {
  const file = await writeOlderMirror(join(dir, 'older.db'), 10);
  const { gate, value } = gateHarness();
  const told: Opening[] = [];
  const answered: Promise<Opening>[] = [];
  const report = openingReport((event, payload) => {
    told.push(payload);
    gate.emit(event, payload);
  });
  gate.register(report.handlers);
  expect(await value('app:opening')).toBeNull();

  await upgradeMirrorInWorker(file, {
    onProgress: (upgrade) => {
      report.mirrorUpgrade('acc_1', upgrade);
      answered.push(value('app:opening'));
    },
  });

  const total = MIGRATIONS_AFTER_OLDER_MIRROR.length;
  // Told at the start and after each migration, then done.
  const steps = Array.from({ length: total + 1 }, (_, applied) => ({ account_id: 'acc_1', applied, total }));
  expect(told).toEqual([...steps, null]);
  expect(await Promise.all(answered)).toEqual(told);
  expect(await value('app:opening')).toBeNull();
});
