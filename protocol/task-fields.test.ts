// The task field lists read off taskSchema: each names exactly the fields of
// its kind, so the mirror's checks (db/tasks/task-columns.ts, db/outbox/outbox.ts) follow
// the schema when a field is added or changes kind.
import { describe, expect, test } from 'vitest';
import {
  EDITABLE_TASK_FIELDS,
  NULLABLE_TEXT_TASK_FIELDS,
  TASK_DATE_FIELDS,
  TASK_FIELDS,
  taskSchema,
} from './task';

const base = { task_id: 'k1', title: 'A task', status: 'not_started' };

describe('task field lists', () => {
  test('every field the schema names is listed once, in the schema order', () => {
    expect(TASK_FIELDS).toEqual(Object.keys(taskSchema.shape));
    expect(new Set(TASK_FIELDS).size).toBe(TASK_FIELDS.length);
  });

  test('the nullable text fields are the ids, names and date-times kept as sent', () => {
    expect(NULLABLE_TEXT_TASK_FIELDS).toEqual([
      'org_id',
      'project_id',
      'team_id',
      'section_id',
      'sprint_id',
      'goal_id',
      'milestone_id',
      'parent_task_id',
      'description',
      'priority',
      'assignee',
      'task_type',
      'created_via',
      'review',
      'created_by',
      'updated_by',
      'created_at',
      'updated_at',
      'completed_at',
    ]);
  });

  test('the date fields are the due and start days', () => {
    expect(TASK_DATE_FIELDS).toEqual(['due_date', 'start_date']);
  });

  test.each(NULLABLE_TEXT_TASK_FIELDS.map((field) => [field]))(
    '%s takes text, null or nothing, and refuses a number',
    (field) => {
      expect(taskSchema.safeParse({ ...base, [field]: 'x' }).success).toBe(true);
      expect(taskSchema.safeParse({ ...base, [field]: null }).success).toBe(true);
      expect(taskSchema.safeParse(base).success).toBe(true);
      expect(taskSchema.safeParse({ ...base, [field]: 7 }).success).toBe(false);
    },
  );

  test.each(TASK_DATE_FIELDS.map((field) => [field]))(
    '%s takes a day, null or nothing, and refuses other text',
    (field) => {
      expect(taskSchema.safeParse({ ...base, [field]: '2026-03-11' }).success).toBe(true);
      expect(taskSchema.safeParse({ ...base, [field]: null }).success).toBe(true);
      expect(taskSchema.safeParse({ ...base, [field]: 'soon' }).success).toBe(false);
    },
  );

  test('every editable field is a field of the schema', () => {
    for (const field of EDITABLE_TASK_FIELDS) expect(TASK_FIELDS).toContain(field);
  });
});
