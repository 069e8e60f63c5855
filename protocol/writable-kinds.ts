// Every kind a person writes besides tasks and comments, in the order the app
// lists them. Adding a kind is its descriptor beside its wire schemas and a
// line here (docs/adding-a-kind.md).
import { goalKind } from './goal';
import { milestoneKind } from './milestone';
import { sectionKind } from './section';
import { sprintKind } from './sprint';
import { taskAttachmentKind } from './task-attachment';
import { viewKind } from './view';
import { viewPinKind } from './view-pin';
import type { FilingField, WritableKind } from './writable-kind';

export const COLLECTION_KINDS = [
  sectionKind,
  sprintKind,
  goalKind,
  milestoneKind,
  viewKind,
  viewPinKind,
  taskAttachmentKind,
] as const;

/** A collection kind's outbox entity type ('section', 'sprint', …). */
export type CollectionEntity = (typeof COLLECTION_KINDS)[number]['entityType'];

/** A collection kind's mirrored collection ('sections', 'sprints', …). */
export type WritableCollection = (typeof COLLECTION_KINDS)[number]['collection'];

/** The writable kinds' collections, for an enum and for counting per kind. */
export const WRITABLE_COLLECTIONS = COLLECTION_KINDS.map((kind) => kind.collection);

/** The entity types, for an enum (the IPC contract's, the headless command's verbs). */
export const COLLECTION_ENTITIES = COLLECTION_KINDS.map((kind) => kind.entityType) as [
  CollectionEntity,
  ...CollectionEntity[],
];

/** The descriptor of an entity type; null for one that is not a collection kind (a task, a comment). */
export function collectionKindOf(entityType: string): WritableKind | null {
  return COLLECTION_KINDS.find((kind) => kind.entityType === entityType) ?? null;
}

type CollectionKind = (typeof COLLECTION_KINDS)[number];

/** The kinds tasks are filed under (sections, sprints, goals, milestones), each with the task field that names it. */
export const FILING_KINDS = COLLECTION_KINDS.filter(
  (kind): kind is CollectionKind & { readonly filesTasksBy: FilingField } => kind.filesTasksBy !== null,
);

/** The task fields that file tasks under a collection kind (`section_id`, …), for an enum. */
export const FILING_FIELDS = FILING_KINDS.map((kind) => kind.filesTasksBy) as [FilingField, ...FilingField[]];

/** The mirrored collection an outbox entity type's changes show in: a collection kind's own, a comment's thread, the tasks. */
export function collectionOfEntity(entityType: string): string {
  if (entityType === 'comment') return 'task_comments';
  return collectionKindOf(entityType)?.collection ?? 'tasks';
}
