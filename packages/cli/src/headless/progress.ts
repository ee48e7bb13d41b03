import type { Unsubscribe } from "@yoake/llm-worker/internal";
import { formatPlan, type Pod } from "@yoake/pod";
import { fallbackLabel } from "../fallback-label.js";
import type { OutputStream } from "../io.js";
import { retryLabel } from "../retry-label.js";
import { toolCallLabel } from "../tool-call-label.js";

export interface ProgressOptions {
  /** A line per tool call as it starts, and the plan each time the model writes it. */
  tools: boolean;
  /** Info alerts too (warnings and errors are always shown). */
  info: boolean;
}

/**
 * Reports a headless run on stderr, so stdout keeps only the answer: warnings and errors
 * always (a file reference that did not resolve, a hook that failed), each request sent again
 * always (a provider that does not answer is otherwise a silence of minutes: the first retry is
 * the first sign of it), and optionally each tool call and info alerts.
 */
export function reportProgress(
  pod: Pick<Pod, "on">,
  stderr: OutputStream,
  options: ProgressOptions,
): Unsubscribe {
  const offs: Unsubscribe[] = [
    pod.on("alert", (alert) => {
      if (alert.level === "info" && !options.info) return;
      stderr.write(`yoake: ${alert.level}: ${alert.message}\n`);
    }),
    // Always: another model answers from here on, at the price of a cold cache.
    pod.on("fallback", (event) => stderr.write(`yoake: warn: ${fallbackLabel(event)}\n`)),
  ];
  if (options.tools) {
    offs.push(pod.on("tool_start", (event) => stderr.write(`· ${toolCallLabel(event.call)}\n`)));
    offs.push(pod.on("plan_changed", ({ plan }) => stderr.write(`${indent(formatPlan(plan))}\n`)));
    offs.push(
      pod.on("subagent", (event) => {
        if (event.state === "tool") stderr.write(`  ↳ ${event.description}: ${event.tool}\n`);
      }),
    );
  }
  offs.push(pod.on("retry", (event) => stderr.write(`yoake: ${retryLabel(event)}\n`)));
  return () => {
    for (const off of offs) off();
  };
}

const indent = (text: string): string => text.replace(/^/gm, "  ");
