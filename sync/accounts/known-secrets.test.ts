// The live set of secrets the logs redact by value: trimmed, bounded, oldest out first.
import { expect, test } from 'vitest';
import { KnownSecrets } from './known-secrets';

test('remembers secrets trimmed, once each, and ignores values too short to be one', () => {
  const known = new KnownSecrets();
  known.note('  opaque-access-1\n');
  known.note('opaque-access-1');
  known.note('short');
  known.note(undefined);
  known.note(null);
  expect(known.list()).toEqual(['opaque-access-1']);
});

test('the list is live: a secret noted after it was read is in the next read', () => {
  const known = new KnownSecrets();
  known.note('opaque-access-1');
  const before = known.list();
  known.note('opaque-access-2');
  expect(before).toEqual(['opaque-access-1']);
  expect(known.list()).toEqual(['opaque-access-1', 'opaque-access-2']);
});

test('past its limit the oldest is forgotten first; one seen again counts as new', () => {
  const known = new KnownSecrets(2);
  known.note('secret-aaaa');
  known.note('secret-bbbb');
  known.note('secret-aaaa');
  known.note('secret-cccc');
  expect(known.list()).toEqual(['secret-aaaa', 'secret-cccc']);
});
