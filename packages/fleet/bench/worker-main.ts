// A fleet worker process for the benchmark: `node --import tsx worker-main.ts <url> <concurrency>`.
import { startFleetWorker } from "../src/index.js";

const [url, concurrency] = process.argv.slice(2) as [string, string];
const worker = await startFleetWorker({ url, concurrency: Number(concurrency), env: process.env });
process.stdout.write("ready\n");
await new Promise((resolve) => process.once("SIGTERM", resolve));
await worker.stop();
