import { describe, expect, test } from 'vitest';
import { inBoardOrder, placeAt, POSITION_STEP } from './board-order';

const list = (...positions: (number | null)[]) =>
  positions.map((position, n) => ({ id: String.fromCharCode(97 + n), position }));

/** The ids in board order after applying the edits. */
function after(items: { id: string; position: number | null }[], edits: { id: string; position: number }[]) {
  const byId = new Map(edits.map((edit) => [edit.id, edit.position]));
  return inBoardOrder(items.map((item) => ({ ...item, position: byId.get(item.id) ?? item.position }))).map(
    (item) => item.id,
  );
}

describe('placeAt', () => {
  test.each([
    ['to the top', list(1024, 2048, 3072), 'c', 0, ['c', 'a', 'b']],
    ['between two', list(1024, 2048, 3072), 'a', 1, ['b', 'a', 'c']],
    ['to the bottom', list(1024, 2048, 3072), 'a', 2, ['b', 'c', 'a']],
    ['past the end (clamped)', list(1024, 2048, 3072), 'a', 9, ['b', 'c', 'a']],
  ])('moves a card %s with one edit', (_case, items, id, index, order) => {
    const edits = placeAt(items, id, index);
    expect(edits).toHaveLength(1);
    expect(after(items, edits)).toEqual(order);
  });

  test('a card from another section takes the place asked, with one edit', () => {
    const items = list(1024, 2048);
    const edits = placeAt(items, 'x', 1);
    expect(edits).toEqual([{ id: 'x', position: 1536 }]);
    expect(placeAt([], 'x', 0)).toEqual([{ id: 'x', position: POSITION_STEP }]);
  });

  test('a card already in that place needs no edit', () => {
    expect(placeAt(list(1024, 2048, 3072), 'b', 1)).toEqual([]);
  });

  test('neighbours without numbers or without room number the list afresh, editing only what changes', () => {
    const unnumbered = list(1024, null, null);
    const edits = placeAt(unnumbered, 'a', 1);
    expect(after(unnumbered, edits)).toEqual(['b', 'a', 'c']);
    expect(edits.map((edit) => edit.id).sort()).toEqual(['a', 'b', 'c']);

    const tight = list(1, 1, 5000);
    const fixed = placeAt(tight, 'c', 1);
    expect(after(tight, fixed)).toEqual(['a', 'c', 'b']);
    expect(fixed).toEqual([
      { id: 'a', position: 1024 },
      { id: 'c', position: 2048 },
      { id: 'b', position: 3072 },
    ]);
  });

  test('a card in its place but numbered out of order is given a number that keeps it there', () => {
    const items = list(2048, 1024);
    const edits = placeAt(items, 'a', 0);
    expect(after(items, edits)).toEqual(['a', 'b']);
  });
});

describe('inBoardOrder', () => {
  test('numbered by number, unnumbered last in the order given', () => {
    const items = list(null, 3, null, 1);
    expect(inBoardOrder(items).map((item) => item.id)).toEqual(['d', 'b', 'a', 'c']);
  });
});
