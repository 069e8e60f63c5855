// The ids the renderer names in its calls, each kind bounded once, so that a
// page cannot hand main an empty or absurd string as one.
import { z } from 'zod';

/** A task's or another resource's id: the service's, or the temporary one of a create still waiting. */
export const idSchema = z.string().min(1).max(1000);

/** An id this app keeps for itself: an account's, a queued operation's, a batch's, a conflict's. */
export const localIdSchema = z.string().min(1).max(200);

/** The input of a call about one task. */
export const taskIdInputSchema = z.strictObject({ task_id: idSchema });
