import { describe, expect, test } from 'vitest';
import { WaitingMoves } from './waiting-moves';

type Column = { id: string; position: number; pending?: string };
const mark = (column: Column): Column => ({ ...column, pending: column.pending ?? 'queued' });
const loadedColumn: Column = { id: 'a', position: 1024 };

describe('a move shown over what was loaded', () => {
  test('stays over every load until one asked for after its edit was answered', () => {
    const moves = new WaitingMoves<{ position: number }>();
    const patch = { position: 4096 };
    moves.add('a', patch);
    expect(moves.over('a', loadedColumn, mark)).toEqual({ id: 'a', position: 4096, pending: 'queued' });
    // Answered when two loads had been asked for: the second may have read the mirror before the edit.
    moves.settle('a', patch, 2);
    moves.loaded(2);
    expect(moves.over('a', loadedColumn, mark).position).toBe(4096);
    expect(moves.over('a', loadedColumn, mark, 3)).toEqual(loadedColumn);
    moves.loaded(3);
    expect(moves.over('a', loadedColumn, mark)).toEqual(loadedColumn);
  });

  test('a quick second move counts from the first, and the first answer does not end it', () => {
    const moves = new WaitingMoves<{ section_id?: string; position: number }>();
    const across = { section_id: 'doing', position: 1024 };
    const down = { position: 3072 };
    moves.add('card', across);
    moves.add('card', down);
    moves.settle('card', across, 1);
    moves.loaded(5);
    // Both stay shown: the card stays in its new section, at its new place, until the later edit is answered.
    expect(moves.over('card', { section_id: 'todo', position: 0 }, (row) => row)).toEqual({
      section_id: 'doing',
      position: 3072,
    });
    moves.settle('card', down, 5);
    moves.loaded(6);
    const reloaded = { section_id: 'doing', position: 2048 };
    expect(moves.over('card', reloaded, (row) => row)).toBe(reloaded);
  });
});
