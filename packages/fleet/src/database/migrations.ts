/**
 * The fleet's schema, as numbered steps. A step is never edited once released: a change is a new
 * step, so every database reaches the same schema whatever version it started from.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: sessions (a head pointer per session, the lease of its one writer) and their sealed lines.
  `CREATE TABLE yoake_sessions (
     id text PRIMARY KEY,
     project text NOT NULL,
     started text NOT NULL,
     previous text,
     next text,
     first_user_text text,
     head_seq integer NOT NULL,
     head_mac text NOT NULL,
     last_activity text NOT NULL,
     lease_owner text,
     lease_expires timestamptz
   );
   CREATE TABLE yoake_session_entries (
     session text NOT NULL REFERENCES yoake_sessions (id),
     seq integer NOT NULL,
     prev text NOT NULL,
     mac text NOT NULL,
     type text NOT NULL,
     line text NOT NULL,
     PRIMARY KEY (session, seq)
   );
   CREATE INDEX yoake_sessions_previous ON yoake_sessions (previous);
   CREATE INDEX yoake_sessions_project ON yoake_sessions (project, started);`,
  // 2: tool-output blobs.
  `CREATE TABLE yoake_blobs (
     id uuid PRIMARY KEY,
     kind text NOT NULL CHECK (kind IN ('text', 'structured')),
     body text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now()
   );`,
  // 3: runs of the queue, and a notification per stored session entry so followers wake up.
  `CREATE TABLE yoake_runs (
     id uuid PRIMARY KEY,
     state text NOT NULL CHECK (state IN ('queued', 'running', 'paused', 'finished', 'failed', 'cancelled')),
     spec jsonb NOT NULL,
     session_id text,
     worker text,
     attempts integer NOT NULL DEFAULT 0,
     permission jsonb,
     decision jsonb,
     result jsonb,
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now()
   );
   CREATE INDEX yoake_runs_created ON yoake_runs (created_at);
   CREATE FUNCTION yoake_notify_entry() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM pg_notify('yoake_session_entries', NEW.session);
     RETURN NULL;
   END $$;
   CREATE TRIGGER yoake_session_entries_notify AFTER INSERT ON yoake_session_entries
     FOR EACH ROW EXECUTE FUNCTION yoake_notify_entry();`,
  // 4: every worker that took a run, in order, and what its attempts cost; the run's events as
  // `yoake -p --output-format stream-json` prints them, kept as `json` (the text as written, keys in
  // their order), which followers read, woken by one NOTIFY per stored batch that the writer sends;
  // so the per-entry session notification is no longer needed.
  `ALTER TABLE yoake_runs ADD COLUMN workers text[] NOT NULL DEFAULT '{}',
     ADD COLUMN cost_usd float8;
   CREATE TABLE yoake_run_events (
     run uuid NOT NULL REFERENCES yoake_runs (id),
     seq integer NOT NULL,
     event json NOT NULL,
     PRIMARY KEY (run, seq)
   );
   DROP TRIGGER yoake_session_entries_notify ON yoake_session_entries;
   DROP FUNCTION yoake_notify_entry();`,
  // 5: a run's working tree when it left its worker before its end (paused, rate limited), for the
  // worker that continues it.
  "ALTER TABLE yoake_runs ADD COLUMN workspace jsonb;",
  // 6: when the worker holding a run last said it still does (a run nobody hears from goes back to
  // the queue), and the run's next event number, taken by each insert of events under the run's
  // row lock, so two workers' inserts never take the same numbers (with the last batch's id, so a
  // batch sent again after its answer was lost is not stored twice).
  `ALTER TABLE yoake_runs ADD COLUMN heard_at timestamptz,
     ADD COLUMN events_next integer NOT NULL DEFAULT 1,
     ADD COLUMN events_batch text;
   UPDATE yoake_runs SET events_next = 1 + COALESCE((SELECT max(seq) FROM yoake_run_events WHERE run = yoake_runs.id), 0);
   CREATE INDEX yoake_runs_heard ON yoake_runs (heard_at) WHERE state IN ('queued', 'running');`,
];
