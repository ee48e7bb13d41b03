import { cp, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { packagePath } from "../package-files.js";
import { generateServerLog } from "./server-log.js";

/** The example project shipped with the command (`packages/cli/demo/project`). */
export const DEMO_PROJECT_SOURCE = packagePath("demo/project/");

/** A scratch copy of the example project, and room beside it for the Pod's own state. */
export interface DemoWorkspace {
  /** The project the agent works on. */
  projectDir: string;
  /** Config, state and blobs of this demo only, so nothing of the user's is read or written. */
  homeDir: string;
  /** Removes everything. */
  remove(): Promise<void>;
}

/**
 * Copies the example project into a new temporary directory and generates its server log. The
 * demo edits the copy, never the shipped files.
 */
export async function createDemoWorkspace(): Promise<DemoWorkspace> {
  // The real path: on macOS the temporary directory is behind a symbolic link.
  const root = await realpath(await mkdtemp(path.join(tmpdir(), "yoake-demo-")));
  const projectDir = path.join(root, "hello-service");
  const homeDir = path.join(root, "home");
  await cp(DEMO_PROJECT_SOURCE, projectDir, { recursive: true });
  await mkdir(path.join(projectDir, "logs"), { recursive: true });
  await writeFile(path.join(projectDir, "logs", "server.log"), generateServerLog());
  await mkdir(homeDir, { recursive: true });
  return {
    projectDir,
    homeDir,
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
