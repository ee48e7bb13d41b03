import { lstat, realpath } from "node:fs/promises";
import path from "node:path";
import { pathCovers } from "../scope/rules.js";
import type { ConfinementOptions } from "./bubblewrap.js";
import type { Mount, MountPlan } from "./bubblewrap-mounts.js";
import { listedSocketPaths, resolverFile } from "./host-sockets.js";
import { resolvePath } from "./resolved-path.js";

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
  options: ConfinementOptions,
  readable: readonly string[],
  deniedRead: (real: string) => boolean,
): Promise<void> {
  const { reads } = options;
  const writable = plan.all().filter((mount) => mount.kind === "write");
  const insideWritable = (view: string): boolean => writable.some((w) => pathCovers(w.path, true, view));
  const homes = (
    await Promise.all(
      reads.homes.map(async (home) => ({ lexical: path.resolve(home), ...(await resolvePath(home)) })),
    )
  ).filter((home) => home.exists && home.isDirectory);

  const named = new Set([...reads.named, ...readable].map((p) => path.resolve(p)));
  const shown = await Promise.all(
    [...reads.reveal, ...readable].map(async (p) => ({
      lexical: path.resolve(p),
      ...(await resolvePath(p)),
    })),
  );
  const hiddenHomes = homes.filter(
    (home) =>
      !writable.some((w) => pathCovers(w.path, true, home.real)) &&
      !shown.some(
        (s) => s.exists && (pathCovers(s.lexical, true, home.lexical) || pathCovers(s.real, true, home.real)),
      ),
  );
  for (const home of hiddenHomes)
    if (plan.hostPathAt(home.real) === home.real)
      plan.add({ path: home.real, kind: "mask", isDirectory: true });
  for (const dir of ["/run", ...options.hide]) {
    const hidden = await resolvePath(dir);
    if (hidden.exists && hidden.isDirectory && plan.hostPathAt(hidden.real) === hidden.real)
      plan.add({ path: hidden.real, kind: "mask", isDirectory: true });
  }

  const reveals: (Mount & { named: boolean })[] = [];
  for (const { lexical, real, exists, isDirectory } of shown) {
    if (!exists) continue;
    const home = hiddenHomes.find((h) => pathCovers(h.lexical, true, lexical));
    const view = home === undefined ? real : path.join(home.real, path.relative(home.lexical, lexical));
    if (insideWritable(view) || deniedRead(view) || deniedRead(real)) continue;
    reveals.push({ path: view, source: real, kind: "reveal", isDirectory, named: named.has(lexical) });
  }
  // Parents first, so that what a shown parent already shows is not bound twice.
  reveals.sort((a, b) => a.path.length - b.path.length);
  for (const { named: isNamed, ...reveal } of reveals)
    if (isNamed || plan.hostPathAt(reveal.path) !== reveal.source) plan.add(reveal);
  if (options.network) {
    const resolver = await resolverFile();
    if (resolver !== undefined && plan.hostPathAt(resolver) !== resolver)
      plan.add({ path: resolver, kind: "reveal", isDirectory: false });
  }

  for (const secret of reads.secrets) {
    const found = await resolvePath(secret);
    if (!found.exists || named.has(path.resolve(secret)) || named.has(found.real)) continue;
    maskEverywhere(plan, found.real, found.isDirectory);
  }
  for (const sealed of reads.sealed) {
    const found = await resolvePath(sealed);
    if (found.exists) maskEverywhere(plan, found.real, found.isDirectory);
  }
  for (const socket of await hostSockets()) {
    for (const view of plan.positionsOf(socket))
      if (plan.topAt(view)?.kind !== "write") plan.add({ path: view, kind: "mask", isDirectory: false });
  }
}

function maskEverywhere(plan: MountPlan, real: string, isDirectory: boolean): void {
  for (const view of plan.positionsOf(real)) plan.add({ path: view, kind: "mask", isDirectory });
}

/** The canonical paths of the pathname sockets the kernel lists now that are still sockets. */
async function hostSockets(): Promise<string[]> {
  const found = await Promise.all(
    (await listedSocketPaths()).map(async (listed) => {
      const real = await realpath(listed).catch(() => undefined);
      if (real === undefined) return undefined;
      const info = await lstat(real).catch(() => undefined);
      return info?.isSocket() === true ? real : undefined;
    }),
  );
  return [...new Set(found.filter((real): real is string => real !== undefined))];
}
