// The update feed as packaged: electron-builder.yml's publish entry, read by
// electron-builder's own loader, is what electron-updater's generic provider follows.
import { resolve } from 'node:path';
import { getConfig } from 'app-builder-lib/out/util/config/config';
import { beforeAll, expect, test } from 'vitest';
import { parseUpdateFeedUrl } from '../../services/updates/update-feed-url';

type Configuration = Awaited<ReturnType<typeof getConfig>>;

let config: Configuration;
beforeAll(async () => {
  config = await getConfig(resolve(import.meta.dirname, '../..'), null, null);
});

test('publishes to a generic feed over https, which the app accepts as its update feed', () => {
  const publish = config.publish as { provider: string; url: string };
  expect(publish.provider).toBe('generic');
  expect(parseUpdateFeedUrl(publish.url).href).toBe(publish.url);
  expect(new URL(publish.url).protocol).toBe('https:');
});

test('builds what each platform updater installs: a zip on macOS, NSIS on Windows, AppImage and deb on Linux', () => {
  const names = (target: unknown) =>
    (Array.isArray(target) ? target : [target]).map((t) =>
      typeof t === 'string' ? t : (t as { target: string }).target,
    );
  expect(names(config.mac?.target)).toContain('zip');
  expect(names(config.win?.target)).toContain('nsis');
  expect(names(config.linux?.target)).toEqual(expect.arrayContaining(['AppImage', 'deb']));
});
