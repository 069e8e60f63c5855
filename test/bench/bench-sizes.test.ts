// What `--sizes` of the mirror, sync and UI benchmarks relies on: the sizes
// read, the options each size's run is given, and the growth the table shows.
import { describe, expect, test } from 'vitest';
import { argsForEachSize, parseSizes, sizeTable } from './bench-sizes';

describe('parseSizes', () => {
  test('reads the task counts smallest first, whatever order they were given in', () => {
    expect(parseSizes('1000000,10000,100000')).toEqual([10000, 100000, 1000000]);
  });

  test.each(['', '10000,', '10000,abc', '1e4.5', '10000,-5'])('refuses %j', (option) => {
    expect(() => parseSizes(option)).toThrow(/--sizes/);
  });

  test('refuses a size below the least the benchmark runs at', () => {
    expect(() => parseSizes('4000,10000', 5000)).toThrow(/5000 or more/);
    expect(parseSizes('5000,10000', 5000)).toEqual([5000, 10000]);
  });
});

describe('argsForEachSize', () => {
  test("passes every option on but the sizes and the task count, each size's run gets its own", () => {
    expect(
      argsForEachSize(['--sizes', '10000,100000', '--latency-ms', '20', '--tasks', '5', '--no-push']),
    ).toEqual(['--latency-ms', '20', '--no-push']);
  });

  test('drops them in their --name=value form too', () => {
    expect(argsForEachSize(['--sizes=10000', '--tasks=5', '--edits=10'])).toEqual(['--edits=10']);
  });
});

describe('sizeTable', () => {
  const sizes = [10_000, 100_000];
  const runs = [
    { db_mb: 14, list_p95_ms: 2, tasks: 10_000, mode: 'a' },
    { db_mb: 140, list_p95_ms: 20, tasks: 100_000, mode: 'b' },
  ];

  test("shows each figure's growth over the tasks' growth: 1 for linear, 0.1 for flat at ten times the tasks", () => {
    const lines = sizeTable(sizes, runs, ['db_mb', 'load_avg']).split('\n');
    expect(lines[0]).toMatch(/figure\s+10,000\s+100,000\s+growth ÷ tasks' \(x10\)$/);
    expect(lines[1]).toMatch(/db_mb\s+14\s+140\s+1\.00$/);
    // A figure a run did not report shows as '-', with no growth.
    expect(lines[2]).toMatch(/load_avg\s+-\s+-\s*$/);
  });

  test('a figure that grows faster than the tasks shows above 1, one that is not a number shows no growth', () => {
    const faster = [runs[0] as Record<string, unknown>, { ...runs[1], list_p95_ms: 200 }];
    const lines = sizeTable(sizes, faster, ['list_p95_ms', 'mode']).split('\n');
    expect(lines[1]).toMatch(/list_p95_ms\s+2\s+200\s+10\.00$/);
    expect(lines[2]).toMatch(/mode\s+"a"\s+"b"\s*$/);
  });
});
