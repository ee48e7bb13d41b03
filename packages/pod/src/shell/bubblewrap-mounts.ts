import path from "node:path";
import { pathCovers } from "../scope/rules.js";

/** One mount of the compiled sandbox, applied parents first. */
export interface Mount {
  /** Where it is in the sandbox. */
  path: string;
  /** What the host path shown there is, for a bind (the same as `path` unless a home's toolchain lives elsewhere). */
  source?: string;
  /**
   * `write`: bound writable; `readonly`: bound read-only over a writable one; `reveal`: bound
   * read-only inside something hidden; `mask`: hidden (an empty tmpfs, or /dev/null over a file).
   */
  kind: "write" | "readonly" | "reveal" | "mask";
  isDirectory: boolean;
}

/** The order of mounts on one path: make writable, then take writing back, then hide. */
const KIND_ORDER: Readonly<Record<Mount["kind"], number>> = { reveal: 0, write: 1, readonly: 2, mask: 3 };

/** What the sandbox's own `--dev`, `--proc` and `--tmpfs /tmp` put over the host's, before any mount. */
const PRIVATE_DIRS: readonly Mount[] = ["/dev", "/proc", "/tmp"].map((dir) => ({
  path: dir,
  kind: "mask",
  isDirectory: true,
}));

/**
 * The mounts of one sandbox, and what a path inside it shows. Mounts are applied in `ordered()`
 * order (parents first, then by kind), so the last mount covering a path decides what is there.
 */
export class MountPlan {
  private readonly mounts: Mount[] = [];

  add(mount: Mount): void {
    this.mounts.push(mount);
  }

  all(): readonly Mount[] {
    return this.mounts;
  }

  /** The mount that decides what `view` shows, or undefined when the host's own tree (`--ro-bind / /`) does. */
  topAt(view: string): Mount | undefined {
    // The private directories come before every mount: any mount at or below one is applied later.
    let top = PRIVATE_DIRS.find((dir) => pathCovers(dir.path, true, view));
    for (const mount of this.mounts) {
      if (!pathCovers(mount.path, true, view)) continue;
      const later =
        top === undefined ||
        (PRIVATE_DIRS.includes(top) ? depth(mount.path) >= depth(top.path) : compareMounts(top, mount) <= 0);
      if (later) top = mount;
    }
    return top;
  }

  /** The host path `view` shows in the sandbox, or undefined when it is hidden. */
  hostPathAt(view: string): string | undefined {
    const top = this.topAt(view);
    if (top === undefined) return view;
    if (top.kind === "mask") return undefined;
    return path.join(top.source ?? top.path, path.relative(top.path, view));
  }

  /**
   * Every place in the sandbox where the host's `real` (a canonical path) shows: at its own path
   * unless something hides it, and inside each bind whose source holds it.
   */
  positionsOf(real: string): string[] {
    const candidates = new Set([real]);
    for (const mount of this.mounts) {
      const source = mount.source ?? mount.path;
      if (mount.kind !== "mask" && pathCovers(source, true, real))
        candidates.add(path.join(mount.path, path.relative(source, real)));
    }
    return [...candidates].filter((view) => this.hostPathAt(view) === real);
  }

  /** The mounts, once each, parents first; with `pins` for the guarded paths inside writable ones. */
  ordered(): Mount[] {
    const mounts = [...this.mounts, ...pins(this.mounts)];
    const unique = [...new Map(mounts.map((mount) => [`${mount.kind} ${mount.path}`, mount])).values()];
    return unique.sort(compareMounts);
  }
}

function compareMounts(a: Mount, b: Mount): number {
  return depth(a.path) - depth(b.path) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
}

/**
 * Rules name paths, and a writable directory can be renamed: moving `sub` away would take a
 * hidden `sub/secret` out from under the rule that hides it, for the next command. So every
 * directory between a writable mount and a path hidden or read-only inside it is bound onto
 * itself (writable as it was): a mount point cannot be renamed or removed.
 */
function pins(mounts: readonly Mount[]): Mount[] {
  const writable = mounts.filter((mount) => mount.kind === "write");
  const guarded = mounts.filter((mount) => mount.kind === "mask" || mount.kind === "readonly");
  const pinned = new Map<string, Mount>();
  for (const inner of guarded) {
    const outer = writable.filter((w) => w.path !== inner.path && pathCovers(w.path, true, inner.path));
    for (const w of outer) {
      for (
        let dir = path.dirname(inner.path);
        dir !== w.path && pathCovers(w.path, true, dir);
        dir = path.dirname(dir)
      ) {
        const locked = guarded.some((g) => pathCovers(g.path, true, dir));
        pinned.set(dir, { path: dir, kind: locked ? "readonly" : "write", isDirectory: true });
      }
    }
  }
  return [...pinned.values()];
}

/**
 * The bubblewrap options for mounts in order. A hidden directory is made read-only only after
 * everything, so that what is shown again inside it gets its mount point (bubblewrap makes it in
 * the empty tmpfs); `--remount-ro` does not reach the mounts inside.
 */
export function mountArgs(mounts: readonly Mount[]): string[] {
  const args: string[] = [];
  const remount: string[] = [];
  for (const mount of mounts) {
    const source = mount.source ?? mount.path;
    switch (mount.kind) {
      case "write":
        args.push("--bind", source, mount.path);
        break;
      case "readonly":
      case "reveal":
        args.push("--ro-bind", source, mount.path);
        break;
      case "mask":
        if (mount.isDirectory) {
          args.push("--perms", "0555", "--tmpfs", mount.path);
          remount.push("--remount-ro", mount.path);
        } else args.push("--ro-bind", "/dev/null", mount.path);
    }
  }
  return [...args, ...remount];
}

function depth(p: string): number {
  return p === "/" ? 0 : p.split("/").length - 1;
}
