/**
 * The bounds of the file tools. Each tool's description quotes the ones that concern it, so the
 * model knows them before it runs into them.
 */

/** What `read_file` returns at most, in UTF-8 bytes of numbered lines (the manifest's `limits.tool_output_bytes`). */
export const TOOL_OUTPUT_MAX_BYTES = 16 * 1024;

/** `read_file` cuts a line longer than this many characters (minified code would fill the cap with one line). */
export const READ_MAX_LINE_CHARS = 2000;

/** `read_file` and `edit_file` refuse larger files: they read a file whole, to count its lines and hash it. */
export const READ_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Most files `glob` lists; it sorts every match by modification time first, so these are the newest. */
export const GLOB_MAX_RESULTS = 200;

/** Entries `grep` returns when `head_limit` is not given: lines in content mode, files otherwise. */
export const GREP_DEFAULT_HEAD_LIMIT = 250;

/** The largest `head_limit` `grep` accepts. */
export const GREP_MAX_HEAD_LIMIT = 2000;

/** `grep` stops adding entries past this many UTF-8 bytes of output, and says how to read on. */
export const GREP_MAX_OUTPUT_BYTES = 64 * 1024;

/** `grep` cuts a matching line longer than this many characters. */
export const GREP_MAX_LINE_CHARS = 500;

/** `grep` skips files larger than this (ripgrep's `--max-filesize`, and the same in the JS fallback). */
export const GREP_MAX_FILE_BYTES = 8 * 1024 * 1024;

/** The largest number of context lines `grep` shows around a match. */
export const GREP_MAX_CONTEXT_LINES = 20;

/** Unchanged lines around each change in the unified diffs of `edit_file` and `write_file`. */
export const DIFF_CONTEXT_LINES = 3;

/** A diff that takes longer than this to compute is left out of the result rather than blocking the turn. */
export const DIFF_TIMEOUT_MS = 2000;
