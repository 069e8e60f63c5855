// A process whose only pending work is the pull worker (the headless command's
// situation): it must run to its end, not exit while awaiting the worker.
import { openMirror } from '../../../db/open-mirror';
import { WorkerPullStore } from '../worker-pull-store';

const file = process.argv[2];
if (!file) throw new Error('usage: worker-only-process.ts MIRROR_FILE');
const mirror = await openMirror(file);
mirror.close();
const store = new WorkerPullStore(file);
await store.ready();
await store.close();
process.stdout.write('finished\n');
