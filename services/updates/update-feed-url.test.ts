import { describe, expect, test } from 'vitest';
import { parseUpdateFeedUrl, UpdateFeedUrlError } from './update-feed-url';

describe('the update feed setting', () => {
  test.each([
    ['https://updates.example.com/desktop', 'https://updates.example.com/desktop/'],
    ['https://updates.example.com/desktop/', 'https://updates.example.com/desktop/'],
    ['http://127.0.0.1:8080/feed', 'http://127.0.0.1:8080/feed/'],
    ['http://[::1]:8080/', 'http://[::1]:8080/'],
  ])('%s is followed as %s', (raw, expected) => {
    expect(parseUpdateFeedUrl(raw).href).toBe(expected);
  });

  test.each([
    ['not a url', 'it is not a valid URL'],
    ['http://updates.example.com/', 'it must use https'],
    ['http://localhost:8080/', 'it must use https'],
    ['file:///tmp/feed/', 'it must use https'],
    ['https://user:secret@updates.example.com/', 'it must not contain a user name or password'],
    ['https://updates.example.com/?channel=beta', 'it must not have a query or fragment'],
  ])('%s is refused: %s', (raw, reason) => {
    expect(() => parseUpdateFeedUrl(raw)).toThrow(UpdateFeedUrlError);
    expect(() => parseUpdateFeedUrl(raw)).toThrow(reason);
  });
});
