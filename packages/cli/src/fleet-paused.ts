import type { RunRecord } from "@yoake/fleet";
import { screenText } from "./screen-text.js";

/**
 * What a paused call would change, from the diff its run's record keeps: `approved.txt (+1 -0)`,
 * `a.ts (+3 -1), b.ts (+0 -2)`. Paths come from the repository: they are screen text here.
 */
export function diffSummary(diff: string): string {
  const files: Array<{ path: string; added: number; removed: number }> = [];
  for (const line of diff.split("\n")) {
    const header = /^\+\+\+ (?:b\/)?(.+)$/.exec(line);
    if (header !== null) {
      files.push({ path: header[1] as string, added: 0, removed: 0 });
      continue;
    }
    const file = files.at(-1);
    if (file === undefined || line.startsWith("--- ")) continue;
    if (line.startsWith("+")) file.added += 1;
    else if (line.startsWith("-")) file.removed += 1;
  }
  return screenText(files.map((file) => `${file.path} (+${file.added} -${file.removed})`).join(", "));
}

/** `write_file call toolu_1 (approved.txt (+1 -0))`: the call a paused run waits on, and its change. */
export function pausedCallLabel(run: Pick<RunRecord, "permission">): string {
  const permission = run.permission;
  if (permission === undefined) return "a call";
  const change = permission.summary === undefined ? "" : diffSummary(permission.summary);
  return `${screenText(permission.tool)} call ${screenText(permission.callId)}${change === "" ? "" : ` (${change})`}`;
}

/** The line that says a run paused and how it goes on: approve the call, then follow the run. */
export function pausedRunLine(run: Pick<RunRecord, "id" | "permission">): string {
  const callId = screenText(run.permission?.callId ?? "<call>");
  return `run ${run.id} paused: ${pausedCallLabel(run)} waits for approval; yoake approve ${run.id} ${callId} allow|deny, then yoake follow ${run.id}`;
}
