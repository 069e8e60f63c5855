// A separate process that opens a mirror file and pushes its outbox once, so
// the crash test can kill it (SIGKILL) at any instant of a push.
// `tsx sync/push/testing/push-child.ts --base-url URL --token TOKEN --db FILE`
import { parseArgs } from 'node:util';
import { openMirror } from '../../../db/open-mirror';
import { ApiClient } from '../../api/api-client';
import { staticCredentials } from '../../api/credentials';
import { mirrorPushStore } from '../mirror-push-store';
import { Pusher } from '../pusher';

const { values } = parseArgs({
  options: { 'base-url': { type: 'string' }, token: { type: 'string' }, db: { type: 'string' } },
});
const baseUrl = values['base-url'];
const token = values.token;
const file = values.db;
if (baseUrl === undefined || token === undefined || file === undefined) {
  process.stderr.write('usage: push-child --base-url URL --token TOKEN --db FILE\n');
  process.exit(2);
}
const mirror = await openMirror(file);
const api = new ApiClient({
  baseUrl,
  credentials: staticCredentials(token),
  retry: { baseDelayMs: 5, maxDelayMs: 40 },
});
const pusher = new Pusher({ store: mirrorPushStore(mirror), api, concurrency: 3 });
// Tells the parent it is about to push (the mirror is open and migrated).
process.stdout.write('pushing\n');
const summary = await pusher.pushAll();
process.stdout.write(`${JSON.stringify(summary)}\n`);
mirror.close();
await api.close();
