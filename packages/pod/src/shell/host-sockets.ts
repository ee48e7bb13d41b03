import { readFile, realpath } from "node:fs/promises";
import path from "node:path";

/** The kernel's table of the Unix sockets of this network namespace. */
export const UNIX_SOCKET_TABLE = "/proc/net/unix";

/** Where the C library looks for its name servers. */
export const RESOLV_CONF = "/etc/resolv.conf";

/**
 * One line of /proc/net/unix: `Num RefCount Protocol Flags Type St Inode Path`, the path (when
 * there is one) last and printed raw, so it may hold spaces. An abstract socket's name starts with
 * `@`; a socket bound to a relative path shows that relative path, which says nothing of where it is.
 */
const SOCKET_LINE = /^[0-9a-f]+: [0-9a-f]{8} [0-9a-f]{8} [0-9a-f]{8} [0-9a-f]{4} [0-9a-f]{2} +\d+ (\/.*)$/i;

/**
 * The absolute paths of the pathname Unix sockets listed in `table` (read anew at every call:
 * servers come and go), each once, as they were bound: not canonical, maybe gone already. Sockets
 * of other network namespaces (a container's) are not in the table; a socket bound to a relative
 * path cannot be located and is left out. An unreadable table is an empty one.
 */
export async function listedSocketPaths(table: string = UNIX_SOCKET_TABLE): Promise<string[]> {
  const text = await readFile(table, "utf8").catch(() => "");
  const paths = new Set<string>();
  for (const line of text.split("\n")) {
    const match = SOCKET_LINE.exec(line);
    if (match !== null) paths.add(path.normalize(match[1] as string));
  }
  return [...paths];
}

/**
 * The file `/etc/resolv.conf` really is (systemd-resolved and resolvconf keep it under /run, behind
 * a symbolic link), or undefined when there is none. The sandbox hides /run and shows this one file
 * again, so that names still resolve when commands may use the network.
 */
export async function resolverFile(resolvConf: string = RESOLV_CONF): Promise<string | undefined> {
  return realpath(resolvConf).catch(() => undefined);
}
