// A fleet worker process for the benchmark:
// `node --import tsx worker-main.ts <url> <concurrency> [<repository cache dir> [<fleet module>]]`
// (the module defaults to this checkout's; the benchmark passes an older commit's to compare).
import { pathToFileURL } from "node:url";

const [url, concurrency, repositoryCache, module] = process.argv.slice(2) as [
  string,
  string,
  string?,
  string?,
];
const { startFleetWorker } = (await import(
  module === undefined ? "../src/index.js" : pathToFileURL(module).href
)) as typeof import("../src/index.js");
const worker = await startFleetWorker({
  url,
  concurrency: Number(concurrency),
  env: process.env,
  ...(repositoryCache !== undefined && { repositoryCache }),
});
process.stdout.write("ready\n");
await new Promise((resolve) => process.once("SIGTERM", resolve));
await worker.stop();
