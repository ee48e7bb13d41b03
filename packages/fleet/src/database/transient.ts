/**
 * Whether a database error may go away on retry: the connection broke or was refused (no SQLSTATE,
 * a socket error code, or class 08), the server is shutting down, restarting or starting
 * (57P01-57P03), it has no connection slot free ("too many clients", 53300), or a serialization
 * failure or deadlock (40001, 40P01). Anything else (a constraint, a syntax error) would fail the
 * same way again.
 */
export function isTransient(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string")
    return (
      error instanceof Error &&
      /connection|ECONNRESET|ECONNREFUSED|EPIPE|timeout|the database system is/i.test(error.message)
    );
  if (["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"].includes(code))
    return true;
  return code.startsWith("08") || ["57P01", "57P02", "57P03", "53300", "40001", "40P01"].includes(code);
}

/**
 * Whether `error` is the database being unavailable (not just any error whose message mentions a
 * connection): a SQLSTATE of the transient kinds above, a socket error code, or what the pg client
 * says when the server went away. For deciding that a run's step failed for the database's sake.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return isTransient(error);
  return (
    error instanceof Error &&
    /Connection terminated|timeout exceeded when trying to connect|the database system is|Client has encountered a connection error/i.test(
      error.message,
    )
  );
}
