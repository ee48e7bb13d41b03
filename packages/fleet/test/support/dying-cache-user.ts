// A worker stand-in that dies mid-run (for the repository cache's crash test): opens the cache at
// argv[2], checks out argv[3] into a run tree, leaves changes in it, then starts making a mirror
// of argv[4] and SIGKILLs itself as soon as that clone's partial directory exists (or when the
// clone is done, whichever comes first), so a run tree and usually a half-made mirror are left.

import { readdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { RepositoryCache } from "../../src/worker/repository-cache.js";

const [root, url, otherUrl] = process.argv.slice(2) as [string, string, string];
const cache = await RepositoryCache.open(root);
const tree = await cache.checkout(url, "main");
await writeFile(join(tree.dir, "left-by-the-dead-worker.txt"), "uncommitted\n");
await writeFile(join(tree.dir, "README.md"), "changed by the dead worker\n");
console.log(tree.dir);
const die = () => process.kill(process.pid, "SIGKILL");
const watch = setInterval(() => {
  if (readdirSync(root).some((name) => name.endsWith(".partial"))) die();
}, 1);
await cache.checkout(otherUrl, undefined).finally(() => clearInterval(watch));
die();
