import { describe, expect, test } from 'vitest';
import { countComments } from './comment-count';

describe('the Comments heading’s count', () => {
  test.each([
    ['no comments', [], 0],
    ['two comments without replies', [{}, { replies: [] }], 2],
    ['a comment with a reply', [{ replies: [{}] }], 2],
    ['replies of replies, and a null list', [{ replies: [{ replies: [{}, {}] }, { replies: null }] }, {}], 6],
  ])('%s', (_what, threads, count) => {
    expect(countComments(threads)).toBe(count);
  });
});
