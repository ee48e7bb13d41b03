/**
 * The second half of `npm run build`: after `tsc -b` has written each package's declarations,
 * esbuild writes its JavaScript — one bundled file per entry point, so that starting a program
 * reads a handful of files instead of hundreds of small modules (each a resolution, a read and a
 * compilation: most of the start-up time before bundling).
 *
 * The entry points are read from each package's package.json, never listed here: every target of
 * `exports` and `imports` that has a `@yoake/source` condition (the source it is built from), and
 * every file `sideEffects` names (a script run by its path). Code that several entry points share
 * goes into shared chunks (code splitting), so each module exists once and a class is the same
 * class whichever entry point it is imported through. Dependencies, the sibling packages
 * included, stay imports: a user's `npm install` resolves and deduplicates them.
 *
 * Chunks are written at the top of `dist/`, one level below the package's root like `src/`'s top
 * files: a module that finds a file of the package from `import.meta.url` must live at the top of
 * `src/` so that the same relative path holds in both.
 *
 *   npx tsx scripts/bundle.ts        (after tsc -b tsconfig.build.json)
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The published packages, in the order `tsconfig.build.json` builds them. */
export const PACKAGE_DIRS = [
  "packages/llm-worker",
  "packages/pod",
  "packages/fleet",
  "packages/cli",
] as const;

/** One file to bundle: its source, and its output path in `dist/` without the extension. */
interface EntryPoint {
  in: string;
  out: string;
}

type Target = string | { [condition: string]: Target } | null;

interface PackageJson {
  exports?: Record<string, Target>;
  imports?: Record<string, Target>;
  sideEffects?: boolean | string[];
}

/** Bundles every package's entry points into its `dist/`, replacing the JavaScript there. */
export async function bundlePackages(repoRoot = REPO_ROOT): Promise<void> {
  for (const dir of PACKAGE_DIRS) await bundlePackage(path.join(repoRoot, dir));
}

export async function bundlePackage(dir: string): Promise<void> {
  const packageDir = path.resolve(dir);
  const manifest = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as PackageJson;
  const dist = path.join(packageDir, "dist");
  removeJavaScript(dist);
  await build({
    absWorkingDir: packageDir,
    entryPoints: entryPointsOf(manifest),
    outdir: dist,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    jsx: "automatic",
    // Error classes and others are shown by name: no renaming on collisions between files.
    keepNames: true,
    // Our own `sideEffects` declarations are for our users' bundlers; ours keeps every import.
    ignoreAnnotations: true,
    sourcemap: "linked",
    // dist/ ships without src/: the maps carry the sources themselves.
    sourcesContent: true,
    chunkNames: "[name]-[hash]",
    logLevel: "warning",
  });
}

function entryPointsOf(manifest: PackageJson): EntryPoint[] {
  const entries = new Map<string, EntryPoint>();
  for (const map of [manifest.exports, manifest.imports]) {
    for (const target of Object.values(map ?? {})) {
      if (target === null || typeof target !== "object") continue;
      const source = target["@yoake/source"];
      const output = target.import ?? target.default;
      if (typeof source !== "string" || typeof output !== "string") continue;
      entries.set(output, { in: source, out: outputName(output) });
    }
  }
  for (const script of Array.isArray(manifest.sideEffects) ? manifest.sideEffects : []) {
    const source = script.replace(/^(\.\/)?dist\//, "./src/").replace(/\.js$/, ".ts");
    entries.set(script, { in: source, out: outputName(script) });
  }
  if (entries.size === 0) throw new Error("no entry point in package.json: nothing to bundle");
  return [...entries.values()];
}

/** `./dist/testing/index.js` → `testing/index`: esbuild adds the directory and extension. */
function outputName(output: string): string {
  if (!/^(\.\/)?dist\/.+\.js$/.test(output)) throw new Error(`entry point outside dist/: ${output}`);
  return output.replace(/^(\.\/)?dist\//, "").replace(/\.js$/, "");
}

/** JavaScript and its maps from earlier builds (tsc's one-file-per-module output among them). */
function removeJavaScript(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: "utf8" });
  } catch {
    return;
  }
  for (const name of names)
    if (name.endsWith(".js") || name.endsWith(".js.map")) rmSync(path.join(dir, name), { force: true });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]))
  await bundlePackages();
