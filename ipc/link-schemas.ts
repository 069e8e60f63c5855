// What the renderer is told when the app was opened with a link
// (svc-desktop://task/<id>), and what "Copy link" answers. Main decided
// already (services/links/task-link-router.ts); the page opens, asks, or tells.
import { z } from 'zod';
import { idSchema, localIdSchema } from './id-schemas';

/** Why a link was not acted on: the notice's problem type (renderer/src/problems/describe-problem.ts). */
export const linkProblemSchema = z.enum(['link-malformed', 'link-unsupported', 'link-task-not-found']);
export type LinkProblem = z.infer<typeof linkProblemSchema>;

export const linkRequestSchema = z.discriminatedUnion('kind', [
  /** Main switched to the account already; the page opens the task there. */
  z.strictObject({ kind: z.literal('open-task'), account_id: localIdSchema, task_id: idSchema }),
  /** Several accounts hold the task: the page asks which (the account on show first). */
  z.strictObject({
    kind: z.literal('choose-account'),
    task_id: idSchema,
    account_ids: z.array(localIdSchema).min(2).max(100),
  }),
  /** Nothing was done: the page shows the notice. `reason` is for the log and tests, not the screen. */
  z.strictObject({ kind: z.literal('refused'), problem: linkProblemSchema, reason: z.string().max(500) }),
]);
export type LinkRequest = z.infer<typeof linkRequestSchema>;

export const copiedLinkSchema = z.strictObject({ url: z.string().min(1).max(4096) });
