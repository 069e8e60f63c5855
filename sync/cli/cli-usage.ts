// The headless command's contract with the tools that call it: exit codes, the
// usage text, and the usage error every bad invocation becomes.

/** Exit codes (other tools rely on them). */
export const EXIT = {
  ok: 0,
  /** A sync that ended with errors or conflicts; any other failure at run time. */
  failed: 1,
  /** Bad usage: unknown command or option, missing or malformed value, unknown task, operation or conflict. */
  usage: 2,
  /** The token is invalid, expired or revoked, or the sign-in kept by login ended (sign in again). */
  signedOut: 3,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A mistake in how the command was called; the message says how to call it. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `usage: svc-desktop <command> [options]     (or: npm run cli -- <command> [options])

commands:
  sync --base-url URL --token TOKEN --db FILE [--once | --watch] [--time-budget SECONDS]
      --once (the default): one full pass (push, pull, push), then exit. Progress on stderr;
      the last stdout line is {"pulled","pushed","conflicts","tasks","requests","not_modified","failed"};
      "failed" lists each collection that could not be synced ({"collection","scope",
      "skipped_because","kind","type","status","message"}): the others were synced all the same,
      the command exits 1, and the next sync tries them again.
      --watch: keep syncing on the poll schedule until SIGINT or SIGTERM.
      --time-budget: how long one sync may keep restarting a list whose cursors the service
      refuses and retrying a collection that fails (default 300 seconds).
      The token may come from the SVC_TOKEN environment variable or --token-file FILE (- reads
      standard input) instead of --token, which other users can see in the process list; with
      none, the sign-in kept by login is used (and --base-url defaults to its server; another
      must be on the sign-in server's origin or a pair this build names). Plain http only to
      a loopback address (127.0.0.1, [::1]); anything else needs https.
  login --db FILE [--base-url URL] [--auth-url URL] [--client-id ID] [--no-browser]
      Signs in through the browser (OAuth) and keeps the sign-in beside FILE for sync.
  export --db FILE [--collection tasks]
      The mirror's rows as NDJSON, one raw resource per line; tasks with pending edits applied.
      Collections: tasks (default), organizations, projects, teams, organization_members,
      sections, sprints, goals, milestones, views, view_pins, task_attachments (their records),
      task_comments (the mirrored threads of the tasks you are likely to open, one thread a
      line with its replies nested).
  edit --db FILE --task ID --set field=value [--set field=value ...]
  edit --db FILE --where key=value [--where ...] [--set field=value ...] [--add-tag TAG]
       [--remove-tag TAG] [--yes]
      Every task the filters match (the task list's: status, priority, assignee (me), project,
      tags, team, task_type, due_before, overdue=true, search, …; a comma list is any of them),
      changed at once as one bulk change: prints {"matched"} first and asks; --yes goes on
      without asking. Then {"batch_id","matched","queued","unchanged"}.
  create --db FILE --set title=TEXT [--set field=value ...]
  delete --db FILE --task ID
      Queue a change as the app does, without network; it is sent by the next sync.
      A delete of a task never sent cancels its create (prints "queued": false).
      Values: null clears a field ("null" in JSON quotes is the text null); tags as a comma
      list (a,b) or a JSON array (["a","b,c"]); position as a number; any other field as text.
  comment create --db FILE --set task_id=ID --set content=TEXT [--set parent_comment_id=ID]
  comment edit --db FILE --comment ID --set content=TEXT
  comment delete --db FILE --comment ID
      Queue a comment (or a reply, also to a comment still queued), an edit of your own
      comment, or a delete of your own (an organization owner or admin: of anyone's; else the
      service refuses it, kept as a failed change), without network; sent by the next sync. Prints
      {"comment_id","op_id","queued"}; a new comment's id is temporary (local-…) until then.
  section create --db FILE --set scope_type=project|team|user --set scope_id=ID --set name=TEXT
                 [--set position=NUMBER]
  section edit --db FILE --section ID [--set name=TEXT] [--set position=NUMBER]
  section delete --db FILE --section ID
      The same for sections (rename, move, delete); prints {"section_id","op_id","queued"}.
  sprint create --db FILE --set team_id=ID --set name=TEXT --set start_date=YYYY-MM-DD
                (--set end_date=YYYY-MM-DD | --set duration_weeks=N) [--set goal=TEXT]
  sprint edit --db FILE --sprint ID --set field=value [...]   (--set status=completed completes it)
  goal create --db FILE --set project_id=ID --set name=TEXT [--set target_date=…]
  goal edit --db FILE --goal ID --set field=value [...]   (--set status=closed closes it)
  goal delete --db FILE --goal ID
  milestone create --db FILE --set project_id=ID --set name=TEXT [--set due_date=…]
  milestone edit|delete --db FILE --milestone ID [--set field=value ...]
      The same for sprints (no delete), goals (status=closed closes one) and milestones
      (status=completed); prints {"sprint_id"|"goal_id"|"milestone_id","op_id","queued"}.
  view list --db FILE
      The saved views you can read (yours and the organization's shared ones) as NDJSON, by
      name, waiting changes applied, each with its pin ("pin_id", "pin_position") or null;
      "unknown_filters" says why one cannot be answered offline (a filter of a newer service).
  view rows --db FILE --view ID [--limit N]
      A view's tasks computed from the mirror with its filters and sort, offline, as NDJSON
      (at most N, default 1000); a view whose filters this version does not know fails (1).
  view create --db FILE --set name=TEXT [--set visibility=private|shared]
              [--set filters={"status":["blocked"]}] [--set sort_by=…] [--set sort_order=asc|desc]
              [--set group_by=…] [--set layout=list|board]
  view edit --db FILE --view ID --set field=value [...]   (filters merge key by key; "k":null removes k)
  view delete --db FILE --view ID
      The same for saved views (its pins go with it); prints {"view_id","op_id","queued"}.
  pin add --db FILE --set view_id=ID --set position=NUMBER
  pin move --db FILE --pin ID --set position=NUMBER
  pin remove --db FILE --pin ID
      Pins a view to your sidebar, moves a pin (pins stand in position order), or unpins it;
      prints {"pin_id","op_id","queued"}. A view pinned already is refused by the service (409).
  attachment list --db FILE --task ID
      A task's attachments as NDJSON (name, type, size, who, when, sha256), an upload still
      waiting included ("pending").
  attachment add --db FILE --task ID --file PATH [--name NAME]
      Checks the file by the service's upload rules first (at most 25 MB; no executables,
      scripts, HTML, SVG, XML or macro-enabled Office files, nor a zip holding one; contents that
      match the name), then copies it into the app's files and queues its upload, sent by the next
      sync (a refusal there, 413, 415 or 422, is a failed change with the service's reason).
      Prints {"attachment_id","op_id","queued",…}; a refused file prints the reason and exits 1.
  attachment get --db FILE --attachment ID [--base-url URL] [--token TOKEN | --token-file FILE]
      Downloads its content into the app's private files (resumed after a cut connection,
      checked against its sha256); prints {"attachment_id","path","sha256","size_bytes",…}.
  attachment rename --db FILE --attachment ID --set file_name=NAME
  attachment delete --db FILE --attachment ID
      Queues a rename or a delete (sent with If-Match); prints {"attachment_id","op_id","queued"}.
  outbox --db FILE
      Operations not yet settled (queued, in flight, conflict, failed, blocked), as NDJSON;
      "state_words" says the state as the app does ({"label","sentence"}); "names" gives what
      their ids point at by id (a sprint's, goal's, project's name, …); one the service
      refused (422) names the fields in "retry_without", with a "hint" to send it without them.
      "waits_on" names the stopped change (blocked, failed, conflict) a queued one is held
      behind until that one is retried or dropped ({"op_id","kind","entity_type","entity_id",
      "name","state"}), else null.
  conflicts --db FILE
      Open conflicts as NDJSON (base, mine and theirs for one field each, and "names"); on a
      task deleted on the server, "left_out" says what taking mine re-creates it without.
  resolve --db FILE --conflict ID --take mine|theirs
      Settles one conflict; the change re-enters the outbox and goes with the next sync.
      A conflict on field "*" is a task deleted on the server: mine re-creates it, theirs lets it go.
  retry --db FILE --op ID [--set field=value ...]
      Sends a failed (refused, e.g. 422) or blocked operation again, optionally corrected.
  drop --db FILE --op ID
      Gives up a queued, failed, blocked or conflicting operation; its change leaves the mirror.

exit codes: 0 success; 1 a sync that ended with errors or conflicts, or with some collection not
            synced (listed in "failed"; the rest was synced), or another failure;
            2 bad usage; 3 signed out (token invalid, expired or revoked, or the sign-in kept by
            login was refused or lapsed: run login again).`;
