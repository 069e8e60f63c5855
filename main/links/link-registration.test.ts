// Installers register the scheme the app's links use (electron-builder.yml's
// `protocols`, read by electron-builder's own loader): a renamed scheme on
// either side would leave links that open nothing.
import { resolve } from 'node:path';
import { getConfig } from 'app-builder-lib/out/util/config/config';
import { expect, test } from 'vitest';
import { LINK_SCHEME } from '../../services/links/task-link';

test('the installers register the scheme of the links the app copies', async () => {
  const config = await getConfig(resolve(import.meta.dirname, '../..'), null, null);
  const protocols = [config.protocols ?? []].flat();
  expect(protocols.flatMap((protocol) => protocol.schemes)).toContain(LINK_SCHEME);
});
