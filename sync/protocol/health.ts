// `GET /v1/health`: the liveness probe the client uses while offline.
import { z } from 'zod';

export const healthSchema = z.looseObject({
  status: z.string(),
});
export type Health = z.infer<typeof healthSchema>;
