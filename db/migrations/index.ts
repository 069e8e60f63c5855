// Every migration in order, listed by hand: bundlers cannot follow directory
// scanning, so Kysely's Migrator reads this static list instead.
import type { Migration, MigrationProvider } from 'kysely';
import * as initial from './0001_initial';
import * as taskBodies from './0002_task_bodies';
import * as idTrigramWords from './0003_id_trigram_words';
import * as taskSearchText from './0004_task_search_text';
import * as oneCopyOfSearchText from './0005_one_copy_of_search_text';
import * as idBigramWords from './0006_id_bigram_words';
import * as wordIndexMergesApart from './0007_word_index_merges_apart';
import * as widerWalkIndexes from './0008_wider_walk_indexes';
import * as passCompletedOnce from './0009_pass_completed_once';
import * as milestonesAndTaskOpenings from './0010_milestones_and_task_openings';
import * as commentChecks from './0011_comment_checks';
import * as outboxParent from './0012_outbox_parent';
import * as compactTaskJson from './0013_compact_task_json';
import * as filingCountIndexes from './0014_filing_count_indexes';
import * as virtualSortKeys from './0015_virtual_sort_keys';
import * as commentWatchIndexes from './0016_comment_watch_indexes';
import * as sharedDescription from './0017_shared_description';
import * as milestoneFilingIndex from './0018_milestone_filing_index';
import * as rowHeldServerCopy from './0019_row_held_server_copy';
import * as subTaskIndex from './0020_sub_task_index';
import * as drafts from './0021_drafts';
import * as savedViewsAndPins from './0022_saved_views_and_pins';
import * as outboxBatch from './0023_outbox_batch';
import * as inboxChangeKeys from './0024_inbox_change_keys';
import * as intakeIndex from './0025_intake_index';
import * as taskAttachments from './0026_task_attachments';
import * as smallerTaskRows from './0027_smaller_task_rows';
import * as smallerIdIndex from './0028_smaller_id_index';
import * as taskChanges from './0029_task_changes';

/** Names sort in the order they run; append new migrations at the end, never edit or reorder. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_initial': initial,
  '0002_task_bodies': taskBodies,
  '0003_id_trigram_words': idTrigramWords,
  '0004_task_search_text': taskSearchText,
  '0005_one_copy_of_search_text': oneCopyOfSearchText,
  '0006_id_bigram_words': idBigramWords,
  '0007_word_index_merges_apart': wordIndexMergesApart,
  '0008_wider_walk_indexes': widerWalkIndexes,
  '0009_pass_completed_once': passCompletedOnce,
  '0010_milestones_and_task_openings': milestonesAndTaskOpenings,
  '0011_comment_checks': commentChecks,
  '0012_outbox_parent': outboxParent,
  '0013_compact_task_json': compactTaskJson,
  '0014_filing_count_indexes': filingCountIndexes,
  '0015_virtual_sort_keys': virtualSortKeys,
  '0016_comment_watch_indexes': commentWatchIndexes,
  '0017_shared_description': sharedDescription,
  '0018_milestone_filing_index': milestoneFilingIndex,
  '0019_row_held_server_copy': rowHeldServerCopy,
  '0020_sub_task_index': subTaskIndex,
  '0021_drafts': drafts,
  '0022_saved_views_and_pins': savedViewsAndPins,
  '0023_outbox_batch': outboxBatch,
  '0024_inbox_change_keys': inboxChangeKeys,
  '0025_intake_index': intakeIndex,
  '0026_task_attachments': taskAttachments,
  '0027_smaller_task_rows': smallerTaskRows,
  '0028_smaller_id_index': smallerIdIndex,
  '0029_task_changes': taskChanges,
};

export const LATEST_MIGRATION = Object.keys(MIGRATIONS).at(-1) as string;

export const staticMigrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve({ ...MIGRATIONS }),
};
