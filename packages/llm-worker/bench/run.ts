/**
 * `npm run bench`: our decoder against a bare floor (fetch + eventsource-parser + JSON.parse) over a
 * local server, for the Anthropic and OpenAI-chat shapes of a large and a tool-heavy stream, and the
 * same path with the response assembled (`client.complete`). Each measurement runs in a fresh
 * process; the variants rotate so machine noise hits them alike.
 * Reports medians and the ratio to the floor.
 */
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { type Shape, type StreamCase, shapes, streamCases, type Variant, variants } from "./streams.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const consume = fileURLToPath(new URL("./consume.ts", import.meta.url));

const bodies = new Map<string, Buffer>();
for (const shape of Object.keys(shapes) as Shape[]) {
  for (const name of Object.keys(streamCases) as StreamCase[]) {
    bodies.set(`${shape}.${name}`, Buffer.from(shapes[shape](streamCases[name]()), "utf8"));
  }
}

// Serves `/<shape>.<case>/...` with the body in 16 KB writes, like a server flushing a busy stream.
const server = createServer((req, res) => {
  const body = bodies.get(req.url?.split("/")[1] ?? "");
  req.resume();
  if (!body) return void res.writeHead(404).end();
  res.writeHead(200, { "content-type": "text/event-stream" });
  for (let at = 0; at < body.length; at += 16_384) res.write(body.subarray(at, at + 16_384));
  res.end();
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const port = (server.address() as AddressInfo).port;

interface Sample {
  events: number;
  wallMs: number;
  cpuMs: number;
  rssMB: number;
}

function measure(variant: Variant, key: string, shape: Shape): Promise<Sample> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--import", "tsx", consume, variant, shape, `http://127.0.0.1:${port}/${key}`],
      { cwd: fileURLToPath(new URL("..", import.meta.url)) },
      (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout) as Sample)),
    );
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

const rows: string[] = [];
rows.push("| stream | shape | variant | CPU ms | wall ms | peak RSS MB | CPU ratio |");
rows.push("|---|---|---|---:|---:|---:|---:|");
for (const name of Object.keys(streamCases) as StreamCase[]) {
  for (const shape of Object.keys(shapes) as Shape[]) {
    const key = `${shape}.${name}`;
    const samples: Record<Variant, Sample[]> = { floor: [], ours: [], assembled: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate the order every round so no variant always follows the same neighbour.
      for (let i = 0; i < variants.length; i++) {
        const variant = variants[(i + round) % variants.length] as Variant;
        samples[variant].push(await measure(variant, key, shape));
      }
    }
    const floorCpu = median(samples.floor.map((s) => s.cpuMs));
    for (const variant of variants) {
      const s = samples[variant];
      const cpu = median(s.map((x) => x.cpuMs));
      rows.push(
        `| ${name} | ${shape} | ${variant} | ${cpu.toFixed(0)} | ${median(s.map((x) => x.wallMs)).toFixed(0)} | ${median(s.map((x) => x.rssMB)).toFixed(0)} | ${(cpu / floorCpu).toFixed(2)}x |`,
      );
    }
  }
}
server.close();
console.log(`Decoder benchmark: medians of ${ROUNDS} interleaved runs, node ${process.version}\n`);
console.log(rows.join("\n"));
