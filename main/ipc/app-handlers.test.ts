import { expect, test } from 'vitest';
import { appHandlers } from './app-handlers';
import { IpcHandlerError } from './gate';

const appInfo = { name: 'svc-desktop', version: '0.1.0', platform: 'linux' };
const context = { senderId: 1, senderGone: new AbortController().signal };

function setUp() {
  const opened: string[] = [];
  const handlers = appHandlers({
    appInfo,
    openExternal: (url) => Promise.resolve(void opened.push(url)),
    linkOrigins: () => ['https://svc.example'],
  });
  return { handlers, opened };
}

test('app:info tells the version and platform', async () => {
  expect(await setUp().handlers['app:info']?.(undefined, context)).toEqual(appInfo);
});

test('external-link:open hands a page of the signed-in server to the browser', async () => {
  const { handlers, opened } = setUp();
  expect(await handlers['external-link:open']?.({ url: 'https://svc.example/docs' }, context)).toBeNull();
  expect(opened).toEqual(['https://svc.example/docs']);
});

test.each([
  'https://example.com/docs',
  'http://svc.example/',
  'file:///etc/passwd',
  'javascript:alert(1)',
  'ms-msdt:/id',
  'nonsense',
])('external-link:open refuses %s with url-refused and opens nothing', async (url) => {
  const { handlers, opened } = setUp();
  const refusal = handlers['external-link:open']?.({ url }, context);
  await expect(refusal).rejects.toBeInstanceOf(IpcHandlerError);
  await expect(refusal).rejects.toMatchObject({ type: 'url-refused' });
  expect(opened).toEqual([]);
});
