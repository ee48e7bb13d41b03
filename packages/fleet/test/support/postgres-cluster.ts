import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, chown, mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Where Debian's postgresql 15 (and a /usr/local link to it) put initdb and pg_ctl. */
const BIN_DIRECTORIES = [
  "/usr/local/bin",
  "/usr/lib/postgresql/15/bin",
  "/usr/lib/postgresql/16/bin",
  "/usr/bin",
];
/** PostgreSQL refuses to run as root; tests here run as root, so the cluster belongs to `nobody`. */
const UNPRIVILEGED_USER = "nobody";

/** A private PostgreSQL server for one test file: its own data directory, port and superuser. */
export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  port: number;
  /** The directory of the server's Unix socket (`.s.PGSQL.<port>`). */
  socketDirectory: string;
  /** A new, empty database on this cluster (so tests in one file do not see each other's rows). */
  createDatabase(name: string): Promise<string>;
  /** Restarts the server as a crash would (`pg_ctl restart -m immediate`): every connection drops. */
  crashRestart(): Promise<void>;
  /** Stops the server at once (`-m immediate`), leaving its data for `resume`. */
  halt(): Promise<void>;
  /** Starts a halted server again, on the same port with the same settings. */
  resume(): Promise<void>;
  /** Stops the server and deletes its directory. */
  stop(): Promise<void>;
}

function findBinary(name: string): string {
  for (const dir of BIN_DIRECTORIES) {
    const path = join(dir, name);
    if (existsSync(path)) return path;
  }
  throw new Error(`${name} not found in ${BIN_DIRECTORIES.join(", ")}: install Debian's postgresql`);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/**
 * Starts a cluster in a temporary directory on 127.0.0.1 (never a system service): `initdb` with
 * trust authentication, then `pg_ctl start` with fsync off and small buffers, since test data need
 * not survive a power cut. As root, everything runs as `nobody`, who owns the directory.
 * `durableCommits`: commits survive `crashRestart` and `halt` (the tests of those need it).
 * `parent` (default the system's temporary directory) is where the cluster's directory, which
 * holds its Unix socket, is made; outside `/tmp` it is made searchable by everyone, as a system
 * server's socket directory is, so a test can show what does (not) reach it.
 */
export async function startPostgres(
  options: { parent?: string; durableCommits?: boolean } = {},
): Promise<PostgresCluster> {
  const initdb = findBinary("initdb");
  const pgCtl = findBinary("pg_ctl");
  const dir = await mkdtemp(join(options.parent ?? tmpdir(), "yoake-pg-"));
  if (options.parent !== undefined) await chmod(dir, 0o755);
  const asRoot = userInfo().uid === 0;
  const as = (command: string, args: string[]) =>
    asRoot ? run("runuser", ["-u", UNPRIVILEGED_USER, "--", command, ...args]) : run(command, args);
  if (asRoot) {
    const { stdout } = await run("id", ["-u", UNPRIVILEGED_USER]);
    const { stdout: gid } = await run("id", ["-g", UNPRIVILEGED_USER]);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = join(dir, "data");
  try {
    await as(initdb, ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"]);
    let port = 0;
    let serverOptions = "";
    for (let attempt = 0; ; attempt += 1) {
      port = await freePort();
      const settings = [
        `-h 127.0.0.1 -p ${port} -k ${dir} -F`,
        // An acknowledged commit survives the server's crash only with synchronous_commit on (the
        // server's default; off here for speed where no test crashes the server). fsync stays off:
        // the operating system does not crash, so the WAL in its cache is enough.
        `-c full_page_writes=off -c synchronous_commit=${options.durableCommits === true ? "on" : "off"} -c shared_buffers=16MB`,
        "-c max_connections=200",
      ].join(" ");
      serverOptions = settings;
      try {
        await as(pgCtl, [
          "-D",
          data,
          "-l",
          join(dir, "server.log"),
          "-w",
          "-t",
          "60",
          "-o",
          settings,
          "start",
        ]);
        break;
      } catch (error) {
        // The port may have been taken between choosing it and the server binding it.
        if (attempt >= 3) {
          const log = await readFile(join(dir, "server.log"), "utf8").catch(() => "");
          throw new Error(`pg_ctl start failed: ${(error as Error).message}\n${log}`);
        }
      }
    }
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    let stopped = false;
    return {
      url,
      port,
      socketDirectory: dir,
      async createDatabase(name) {
        const { Client } = await import("pg");
        const client = new Client({ connectionString: url });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE "${name.replaceAll('"', "")}"`);
        } finally {
          await client.end();
        }
        return `postgres://postgres@127.0.0.1:${port}/${name}`;
      },
      async crashRestart() {
        // With its log file: else the new server writes to pg_ctl's output, which then never closes.
        const log = join(dir, "server.log");
        await as(pgCtl, ["-D", data, "-l", log, "-m", "immediate", "-w", "-t", "60", "restart"]);
      },
      async halt() {
        await as(pgCtl, ["-D", data, "-m", "immediate", "-w", "stop"]);
      },
      async resume() {
        await as(pgCtl, [
          "-D",
          data,
          "-l",
          join(dir, "server.log"),
          "-w",
          "-t",
          "60",
          "-o",
          serverOptions,
          "start",
        ]);
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        await as(pgCtl, ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
