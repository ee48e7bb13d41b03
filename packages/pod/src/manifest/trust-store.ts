import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { yoakeStateDir } from "./data-dir.js";

/** The user's answer about one project manifest. */
export type TrustDecision = "trusted" | "distrusted";

interface StoredEntry {
  decision: TrustDecision;
  /** SHA-256 of the manifest files' content (see `manifestDigest`). */
  sha256: string;
  /** The files it covers, for a person reading the store. */
  manifests: string[];
  /** ISO date of the answer. */
  at: string;
}

interface StoreFile {
  version: 1;
  /** By the project's real path: one answer per project, for the manifest content it was given on. */
  projects: Record<string, StoredEntry>;
}

/**
 * The user's answers about project manifests, in `<yoakeStateDir>/trust.json`: outside every
 * project, so a repository can never ship its own trust. An answer holds for the exact manifest
 * content it was given on; a changed manifest has no answer. A missing or unreadable store is an
 * empty one (everything is asked again, which is the safe side); writes replace the file
 * atomically, so a crash leaves the old store or the new one.
 */
export class TrustStore {
  private constructor(readonly file: string) {}

  /** The store of the user whose environment this is (`XDG_STATE_HOME`, `HOME`). */
  static forEnv(env: Readonly<Record<string, string | undefined>>): TrustStore {
    return new TrustStore(path.join(yoakeStateDir(env), "trust.json"));
  }

  /** The answer given for `projectRoot` (a real path) on exactly this content, if any. */
  async decisionFor(projectRoot: string, sha256: string): Promise<TrustDecision | undefined> {
    const entry = (await this.read()).projects[projectRoot];
    return entry?.sha256 === sha256 ? entry.decision : undefined;
  }

  /** The real paths of every project the store holds an answer for (whatever the answer). */
  async knownProjects(): Promise<string[]> {
    return Object.keys((await this.read()).projects);
  }

  /** Records an answer, replacing any earlier one for the project. */
  async record(
    projectRoot: string,
    sha256: string,
    manifests: string[],
    decision: TrustDecision,
  ): Promise<void> {
    const store = await this.read();
    store.projects[projectRoot] = { decision, sha256, manifests, at: new Date().toISOString() };
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${randomBytes(6).toString("hex")}.tmp`;
    const handle = await open(temp, "wx", 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(store, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  private async read(): Promise<StoreFile> {
    const text = await readFile(this.file, "utf8").catch(() => undefined);
    if (text === undefined) return { version: 1, projects: {} };
    try {
      const parsed = JSON.parse(text) as Partial<StoreFile>;
      if (parsed.version === 1 && typeof parsed.projects === "object" && parsed.projects !== null)
        return { version: 1, projects: parsed.projects };
    } catch {
      // Unreadable: nothing is trusted.
    }
    return { version: 1, projects: {} };
  }
}
