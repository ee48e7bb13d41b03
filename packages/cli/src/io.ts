/** A stream the command writes to: `process.stdout` / `process.stderr`, or a test's buffer. */
export interface OutputStream {
  write(text: string): boolean;
  readonly isTTY?: boolean;
}

/** Where standard input comes from: `process.stdin`, or a test's stream. */
export type InputStream = AsyncIterable<Uint8Array | string> & { readonly isTTY?: boolean };

/**
 * Everything the command reads from or writes to outside its arguments, so that tests run it
 * in-process with their own streams, environment and working directory.
 */
export interface CliIO {
  stdin: InputStream;
  stdout: OutputStream;
  stderr: OutputStream;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

/** The process's own streams, environment and directory. */
export function processIO(): CliIO {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  };
}
