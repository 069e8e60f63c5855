import { expect, test } from 'vitest';
import { classifyUpdateError } from './update-errors';
import { UpdateSignatureError } from './update-signature';

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

test.each([
  [
    coded('sha512 checksum mismatch, expected a, got b', 'ERR_CHECKSUM_MISMATCH'),
    'checksum-mismatch',
    'sha512 checksum mismatch, expected a, got b',
  ],
  [
    coded(
      'Cannot parse update info from latest.yml in the latest release artifacts (https://u.example/latest.yml): YAMLException: bad\n    at x, rawData: version: [',
      'ERR_UPDATER_INVALID_UPDATE_INFO',
    ),
    'malformed-feed',
    'Cannot parse update info from latest.yml in the latest release artifacts (https://u.example/latest.yml)',
  ],
  [
    coded('No files provided: {}', 'ERR_UPDATER_NO_FILES_PROVIDED'),
    'malformed-feed',
    'No files provided: {}',
  ],
  [
    coded('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED'),
    'unreachable',
    'connect ECONNREFUSED 127.0.0.1:9',
  ],
  [new Error('net::ERR_INTERNET_DISCONNECTED'), 'unreachable', 'net::ERR_INTERNET_DISCONNECTED'],
  [
    Object.assign(new Error('HTTP error: Service Unavailable'), { statusCode: 503 }),
    'unreachable',
    'the update server answered 503',
  ],
  [new UpdateSignatureError('latest.yml.sig is missing'), 'unsigned-feed', 'latest.yml.sig is missing'],
  [new Error('something else\nwith a stack'), 'failed', 'something else'],
  ['a thrown string', 'failed', 'a thrown string'],
] as const)('%s is %s', (error, reason, message) => {
  expect(classifyUpdateError(error)).toEqual({ reason, message });
});

test('a long message is cut to one short line', () => {
  const { message } = classifyUpdateError(new Error('x'.repeat(500)));
  expect(message).toHaveLength(200);
  expect(message.endsWith('…')).toBe(true);
});
