/**
 * Whether a database error may go away on retry: the connection broke (no SQLSTATE, or class 08),
 * the server is shutting down or restarting (57P01-57P03), or a serialization failure or deadlock
 * (40001, 40P01). Anything else (a constraint, a syntax error) would fail the same way again.
 */
export function isTransient(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string")
    return error instanceof Error && /connection|ECONNRESET|EPIPE|timeout/i.test(error.message);
  if (["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT"].includes(code)) return true;
  return code.startsWith("08") || ["57P01", "57P02", "57P03", "40001", "40P01"].includes(code);
}
