import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { pathCovers } from "../scope/rules.js";
import type { Mount, MountPlan } from "./bubblewrap-mounts.js";
import type { HostReads } from "./host-reads.js";
import { listedSocketPaths, resolverFile } from "./host-sockets.js";

/** The part of the sandbox's `ConfinementOptions` that concerns the host outside the scope. */
export interface HostConfinement {
  network: boolean;
  hide: readonly string[];
  reads: HostReads;
}

/** What no reveal may bind from the host: its devices and its processes. */
const HOST_ONLY: readonly string[] = ["/dev", "/proc"];

/**
 * Adds to `plan` (which holds the scope's mounts already) what keeps the host's secrets out of
 * reach, in the order the decisions depend on each other:
 *
 * 1. Each of the user's homes becomes an empty tmpfs, unless a writable root or a reveal covers it
 *    (then hiding it wholesale is impossible and step 4 does the work). /run and `options.hide` are
 *    hidden too, when anything of them still shows.
 * 2. Toolchains, `[shell] reveal` and the scope's other rules (`readable`, absolute) are shown again
 *    read-only: one under a home at the home's real path (a toolchain that is a link to elsewhere
 *    still shows where PATH names it), anything else at its real path. Never inside a writable root
 *    (that would take writing away) nor inside what a deny-read rule hides (a deny always wins).
 * 3. With the network, the resolver's own file is shown again (/etc/resolv.conf leads into /run).
 * 4. Wherever they still show: each credential store and Yoake file is masked unless a reveal or
 *    scope rule names exactly it (a reveal inside it is mounted on top of the mask), the session
 *    key whatever is named, and each pathname Unix socket the kernel lists, unless it is inside a
 *    writable root.
 */
export async function confineHostReads(
  plan: MountPlan,
  options: HostConfinement,
  readable: readonly string[],
  deniedRead: (real: string) => boolean,
): Promise<void> {
  const { reads } = options;
  // Every look-up at once: a command waits for this at each launch.
  const [homes, shown, hidden, secrets, sealed, sockets, resolver] = await Promise.all([
    lookUpAll(reads.homes),
    lookUpAll([...reads.reveal, ...readable]),
    lookUpAll(["/run", ...options.hide]),
    lookUpAll(reads.secrets),
    lookUpAll(reads.sealed),
    listedSocketPaths().then(lookUpAll),
    options.network ? resolverFile() : undefined,
  ]);
  const writable = plan.all().filter((mount) => mount.kind === "write");
  const insideWritable = (view: string): boolean => writable.some((w) => pathCovers(w.path, true, view));

  const named = new Set([...reads.named, ...readable].map((p) => path.resolve(p)));
  const hiddenHomes = homes.filter(
    (home) =>
      // A home of "/" (some service accounts') cannot be hidden: its credential stores are masked.
      home.isDirectory &&
      home.real !== "/" &&
      !writable.some((w) => pathCovers(w.path, true, home.real)) &&
      !shown.some((s) => pathCovers(s.lexical, true, home.lexical) || pathCovers(s.real, true, home.real)),
  );
  for (const dir of [...hiddenHomes, ...hidden]) {
    const revealed = named.has(dir.lexical) || named.has(dir.real);
    if (dir.isDirectory && !revealed && plan.hostPathAt(dir.real) === dir.real)
      plan.add({ path: dir.real, kind: "mask", isDirectory: true });
  }

  const reveals: (Mount & { named: boolean })[] = [];
  for (const { lexical, real, isDirectory } of shown) {
    const home = hiddenHomes.find((h) => pathCovers(h.lexical, true, lexical));
    const view = home === undefined ? real : path.join(home.real, path.relative(home.lexical, lexical));
    if (insideWritable(view) || deniedRead(view) || deniedRead(real)) continue;
    // The sandbox's own /dev and /proc are never replaced by the host's (its processes' environ),
    // nor the whole tree bound again over them: "/" shows the home (above), and binds nothing.
    if (HOST_ONLY.some((dir) => pathCovers(view, true, dir) || pathCovers(dir, true, view))) continue;
    reveals.push({ path: view, source: real, kind: "reveal", isDirectory, named: named.has(lexical) });
  }
  // Parents first, so that what a shown parent already shows is not bound twice.
  reveals.sort((a, b) => a.path.length - b.path.length);
  for (const { named: isNamed, ...reveal } of reveals)
    if (isNamed || plan.hostPathAt(reveal.path) !== reveal.source) plan.add(reveal);
  if (resolver !== undefined && plan.hostPathAt(resolver) !== resolver)
    plan.add({ path: resolver, kind: "reveal", isDirectory: false });

  for (const secret of secrets)
    if (!named.has(secret.lexical) && !named.has(secret.real)) maskEverywhere(plan, secret);
  for (const key of sealed) maskEverywhere(plan, key);
  for (const socket of new Set(sockets.filter((found) => found.isSocket).map((found) => found.real))) {
    for (const view of plan.positionsOf(socket))
      if (plan.topAt(view)?.kind !== "write") plan.add({ path: view, kind: "mask", isDirectory: false });
  }
}

/** A path that exists: as given (made absolute), where it really is, and what it is. */
interface Found {
  lexical: string;
  real: string;
  isDirectory: boolean;
  isSocket: boolean;
}

/** The paths of `paths` that exist (a dangling link or a loop does not), looked up at once. */
async function lookUpAll(paths: readonly string[]): Promise<Found[]> {
  const found = await Promise.all(
    paths.map(async (p): Promise<Found | undefined> => {
      const lexical = path.resolve(p);
      const info = await stat(lexical).catch(() => undefined);
      if (info === undefined) return undefined;
      const real = await realpath(lexical).catch(() => undefined);
      if (real === undefined) return undefined;
      return { lexical, real, isDirectory: info.isDirectory(), isSocket: info.isSocket() };
    }),
  );
  return found.filter((f): f is Found => f !== undefined);
}

function maskEverywhere(plan: MountPlan, found: Found): void {
  for (const view of plan.positionsOf(found.real))
    plan.add({ path: view, kind: "mask", isDirectory: found.isDirectory });
}
