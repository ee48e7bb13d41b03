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
];
