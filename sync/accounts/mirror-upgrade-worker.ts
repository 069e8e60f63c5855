// The mirror's upgrade off the main thread: brings one file to the latest
// schema on a connection of its own, telling the opener of each migration,
// and ends. Main opens its own connection after, finding nothing left to do.
import { parentPort, workerData } from 'node:worker_threads';
import { upgradeMirrorFile } from '../../db/open-mirror';
import { serializeError } from '../pull/worker-protocol';
import type { UpgradeMessage, UpgradeWorkerData } from './mirror-upgrade';

const { file, nativeBinding } = workerData as UpgradeWorkerData;
const port = parentPort;
if (port === null) throw new Error('mirror-upgrade-worker runs only as a worker thread');

const post = (message: UpgradeMessage) => port.postMessage(message);
upgradeMirrorFile(file, {
  ...(nativeBinding !== undefined ? { nativeBinding } : {}),
  onMigrated: (name) => post({ type: 'migrated', name }),
}).then(
  () => post({ type: 'upgraded' }),
  (error: unknown) => post({ type: 'failed', error: serializeError(error) }),
);
