import { ScopeError } from "../scope/scope-error.js";

/**
 * The error a file tool throws for a failed file operation: the Worker turns it into an error
 * result whose text is this message, so it must tell the model what went wrong in words it can act
 * on. A scope refusal keeps the ScopeError's own message (it names the rule that applied); system
 * errors lose their errno jargon and absolute paths.
 */
export function fileError(error: unknown, requestedPath: string): Error {
  if (error instanceof ScopeError) return error;
  const quoted = JSON.stringify(requestedPath);
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case "ENOENT":
    case "ENOTDIR":
      return new Error(`file not found: ${quoted}`);
    case "EISDIR":
      return new Error(`${quoted} is a directory, not a file (list its files with glob)`);
    case "EINVAL":
      return new Error(`${quoted} is not a regular file`);
    case "EACCES":
    case "EPERM":
      return new Error(`the operating system denied access to ${quoted}`);
    case "ELOOP":
      return new Error(`${quoted} leads into a loop of symbolic links`);
    default:
      return error instanceof Error ? error : new Error(String(error));
  }
}

/** Runs one file operation, rethrowing its failure as `fileError` describes. */
export async function attempt<T>(operation: Promise<T>, requestedPath: string): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    throw fileError(error, requestedPath);
  }
}

/** Whether a failure means "nothing there" (as opposed to refused or broken). */
export function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}
