// `GET /v1/health`: the liveness probe the client uses while offline.
import { z } from 'zod';
import { optionalString } from './wire-fields';

export const healthSchema = z.looseObject({
  /** Not marked required: any 200 means the service is reachable. */
  status: optionalString,
});
export type Health = z.infer<typeof healthSchema>;
