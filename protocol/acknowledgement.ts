// `Acknowledgement` (contract, Other records): the answer of a write that has
// nothing else to say, such as a milestone delete. `ok` is always true on a 2xx.
import { z } from 'zod';

export const acknowledgementSchema = z.looseObject({ ok: z.boolean() });
export type Acknowledgement = z.infer<typeof acknowledgementSchema>;
