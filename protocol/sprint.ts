// A sprint (`SprintOut`). Documented: ids, name and both dates required. Its
// `status` values beyond the default `active` are not shown, so any string is kept.
import { z } from 'zod';
import { idField, isoDateField, optionalBoolean, optionalInt, optionalString } from './wire-fields';

export const sprintSchema = z.looseObject({
  sprint_id: idField,
  org_id: idField,
  team_id: idField,
  name: z.string(),
  start_date: isoDateField,
  end_date: isoDateField,
  description: optionalString,
  goal: optionalString,
  completed_by: optionalString,
  created_by: optionalString,
  updated_by: optionalString,
  status: optionalString,
  completed_at: optionalString,
  created_at: optionalString,
  updated_at: optionalString,
  is_active: optionalBoolean,
  duration_weeks: optionalInt,
  duration_label: optionalString,
  task_count: optionalInt,
  completed_count: optionalInt,
});
export type Sprint = z.infer<typeof sprintSchema>;

/** Body of `POST /v1/teams/{team_id}/sprints`: `end_date` and `duration_weeks` are exclusive (422). */
export interface SprintCreateBody {
  name: string;
  start_date: string;
  description?: string | null;
  goal?: string | null;
  end_date?: string | null;
  duration_weeks?: number | null;
}
