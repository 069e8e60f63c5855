// The caller's identity (`GET /v1/me`), assumed by gaps.md as
// `{user_id, username, email, org_id}`. The client needs the id and the
// username (it is what `assignee` holds), so those two are required.
import { z } from 'zod';
import { idField, optionalString } from './wire-fields';

export const meSchema = z.looseObject({
  user_id: idField,
  username: z.string().min(1),
  email: optionalString,
  org_id: optionalString,
});
export type Me = z.infer<typeof meSchema>;
