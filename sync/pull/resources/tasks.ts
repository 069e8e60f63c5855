// Every task the caller can read, walked as several cursor chains at once
// (sync/pull/task-chains.ts), each in the stable order gaps.md recommends
// (created_at ascending, ties by id) and the largest page the contract allows.
import { CHAIN_PAGE, pullTaskChains } from '../task-chains';
import type { PulledResource } from '../pull-context';

export const TASK_PAGE = CHAIN_PAGE;

export const tasksResource: PulledResource = {
  collection: 'tasks',
  needs: ['me'],
  pull: (ctx) => pullTaskChains(ctx, ctx.taskChains, Math.floor(ctx.now() / 86_400_000)),
};
