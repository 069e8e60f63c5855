import { describe, expect, test } from 'vitest';
import {
  formatTaskLink,
  linkInCommandLine,
  parseTaskLink,
  TASK_ID_MAX_LENGTH,
  TASK_LINK_MAX_LENGTH,
} from './task-link';

describe('task links the app opens', () => {
  test.each([
    ['svc-desktop://task/tsk_a1B2c3D4e5F6', 'tsk_a1B2c3D4e5F6'],
    ['SVC-Desktop://TASK/tsk_1', 'tsk_1'],
    ['svc-desktop://task/tsk_1/', 'tsk_1'],
    ['svc-desktop://task/odd%20id', 'odd id'],
    ['svc-desktop://task/t%C3%A2che-%E2%9C%93', 'tâche-✓'],
    ['svc-desktop://task/a:b@c~d', 'a:b@c~d'],
    [`svc-desktop://task/${'x'.repeat(TASK_ID_MAX_LENGTH)}`, 'x'.repeat(TASK_ID_MAX_LENGTH)],
  ])('%s opens task %j', (raw, taskId) => {
    expect(parseTaskLink(raw)).toEqual({ ok: true, link: { kind: 'task', taskId } });
  });

  test.each([
    'tsk_1',
    'https://task/tsk_1',
    'http://example.com/svc-desktop://task/tsk_1',
    'javascript:alert(1)',
    'svc-desktopx://task/tsk_1',
    ' svc-desktop://task/tsk_1',
    '',
  ])('%j is not one of ours', (raw) => {
    expect(parseTaskLink(raw)).toMatchObject({ ok: false, problem: 'not-ours' });
  });

  test.each(['svc-desktop://project/prj_1', 'svc-desktop://settings', 'svc-desktop://tasks/tsk_1'])(
    '%s names something the app does not open',
    (raw) => {
      expect(parseTaskLink(raw)).toMatchObject({ ok: false, problem: 'unsupported' });
    },
  );

  test.each([
    ['no id', 'svc-desktop://task'],
    ['an empty id', 'svc-desktop://task/'],
    ['an empty segment', 'svc-desktop://task//tsk_1'],
    ['two segments', 'svc-desktop://task/tsk_1/comments'],
    ['a traversal', 'svc-desktop://task/../accounts'],
    ['a dot segment', 'svc-desktop://task/.'],
    ['an escaped dot-dot', 'svc-desktop://task/%2E%2E'],
    ['an escaped slash', 'svc-desktop://task/a%2Fb'],
    ['an escaped backslash', 'svc-desktop://task/a%5Cb'],
    ['a raw backslash', 'svc-desktop://task/a\\b'],
    ['a NUL', 'svc-desktop://task/a%00b'],
    ['a newline', 'svc-desktop://task/a%0Ab'],
    ['a right-to-left override', 'svc-desktop://task/a%E2%80%AEb'],
    ['a zero-width space', 'svc-desktop://task/a%E2%80%8Bb'],
    ['a leading space', 'svc-desktop://task/%20tsk_1'],
    ['only spaces', 'svc-desktop://task/%20%20'],
    ['a broken escape', 'svc-desktop://task/a%2'],
    ['a non-hex escape', 'svc-desktop://task/a%zz'],
    ['invalid UTF-8', 'svc-desktop://task/a%C3%28'],
    ['a lone surrogate half', 'svc-desktop://task/%ED%A0%80'],
    ['raw unicode', 'svc-desktop://task/tâche'],
    ['a raw space', 'svc-desktop://task/a b'],
    ['a raw tab', 'svc-desktop://task/a\tb'],
    ['a query', 'svc-desktop://task/tsk_1?account=acc_1'],
    ['an empty query', 'svc-desktop://task/tsk_1?'],
    ['a fragment', 'svc-desktop://task/tsk_1#x'],
    ['user info', 'svc-desktop://user@task/tsk_1'],
    ['a port', 'svc-desktop://task:80/tsk_1'],
    ['an empty host', 'svc-desktop:///task/tsk_1'],
    ['no slashes', 'svc-desktop:task/tsk_1'],
    ['a quote', 'svc-desktop://task/a"b'],
    ['angle brackets', 'svc-desktop://task/<script>'],
    ['an id past the bound', `svc-desktop://task/${'x'.repeat(TASK_ID_MAX_LENGTH + 1)}`],
    ['a link past the bound', `svc-desktop://task/${'%41'.repeat(TASK_LINK_MAX_LENGTH)}`],
  ])('a link with %s is refused as malformed', (_what, raw) => {
    const parsed = parseTaskLink(raw);
    expect(parsed).toMatchObject({ ok: false, problem: 'malformed' });
    if (!parsed.ok) expect(parsed.reason.length).toBeGreaterThan(0);
  });

  test('what is not a string is not a link', () => {
    for (const raw of [null, undefined, 42, { href: 'svc-desktop://task/tsk_1' }]) {
      expect(parseTaskLink(raw)).toMatchObject({ ok: false, problem: 'not-ours' });
    }
  });

  test.each(['tsk_1', 'odd id', 'a/b', 'a?b#c', '100%', 'tâche-✓', '..x', 'Ω≈ç'])(
    'a copied link of %j reads back as the same id',
    (taskId) => {
      const link = formatTaskLink(taskId);
      expect(link).toMatch(/^svc-desktop:\/\/task\/[\x21-\x7e]+$/);
      const parsed = parseTaskLink(link);
      // An id holding a slash cannot be opened from a link: refused rather than misread.
      if (taskId.includes('/')) expect(parsed).toMatchObject({ ok: false, problem: 'malformed' });
      else expect(parsed).toEqual({ ok: true, link: { kind: 'task', taskId } });
    },
  );
});

describe('the link in a command line', () => {
  test('Windows and Linux pass it among the launch arguments', () => {
    expect(
      linkInCommandLine(['/opt/svc-desktop/svc-desktop', '--no-sandbox', 'svc-desktop://task/tsk_1']),
    ).toBe('svc-desktop://task/tsk_1');
    expect(linkInCommandLine(['C:\\svc-desktop.exe', 'SVC-DESKTOP://task/tsk_2/'])).toBe(
      'SVC-DESKTOP://task/tsk_2/',
    );
  });

  test('a broken link is still found, so it gets its notice', () => {
    expect(linkInCommandLine(['app', 'svc-desktop://task/../x'])).toBe('svc-desktop://task/../x');
  });

  test('no link among the arguments: null', () => {
    expect(linkInCommandLine(['app', '--flag', 'https://task/tsk_1'])).toBeNull();
    expect(linkInCommandLine([])).toBeNull();
  });
});
