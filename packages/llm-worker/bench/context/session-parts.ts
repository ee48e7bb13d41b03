/**
 * What the sessions of other shapes are built from: a workspace filled call by call, and facts
 * planted in the outputs, each with the call that first shows it and how to reach it again.
 */
import { plantLine, randomFrom, records } from "./corpus.js";
import { type CallSpec, type Fact, READ_AROUND, type Step, type Workspace } from "./session.js";

export class SessionParts {
  readonly files = new Map<string, string>();
  readonly searches = new Map<string, string>();
  readonly listings = new Map<string, string>();
  readonly commands = new Map<string, string>();
  readonly apis = new Map<string, string>();
  readonly facts = new Map<string, Fact>();
  readonly #random: () => number;

  constructor(seed: number) {
    this.#random = randomFrom(seed);
  }

  /** A whole number in [min, max], from the session's own seed. */
  int(min: number, max: number): number {
    return min + Math.floor(this.#random() * (max - min + 1));
  }

  read(path: string, lines: readonly string[]): CallSpec {
    this.files.set(path, lines.join("\n"));
    return { name: "read_file", args: { path } };
  }

  search(pattern: string, lines: readonly string[]): CallSpec {
    this.searches.set(pattern, lines.join("\n"));
    return { name: "search", args: { pattern } };
  }

  list(path: string, text: string): CallSpec {
    this.listings.set(path, text);
    return { name: "list_dir", args: { path } };
  }

  run(command: string, lines: readonly string[]): CallSpec {
    this.commands.set(command, lines.join("\n"));
    return { name: "run_command", args: { command } };
  }

  /** An endpoint answering with compact JSON, as HTTP APIs do. */
  fetch(endpoint: string, value: unknown): CallSpec {
    this.apis.set(endpoint, JSON.stringify(value));
    return { name: "fetch_api", args: { endpoint } };
  }

  /**
   * Plants `text` at `fraction` of `lines` (before the call that shows them is made) and records
   * the fact: the model will need `needle`, which `source` shows, and `narrowed` finds again.
   */
  plant(
    id: string,
    lines: string[],
    at: number | { index: number },
    text: string,
    needle: string,
    source: CallSpec,
    narrowed?: CallSpec,
  ): void {
    let line: number;
    if (typeof at === "number") line = plantLine(lines, at, text);
    else {
      lines[at.index] = text;
      line = at.index + 1;
    }
    const from = Math.max(1, line - READ_AROUND);
    const to = line + READ_AROUND;
    this.facts.set(id, {
      id,
      needle,
      sourceCallId: "",
      source,
      line,
      selector: `lines:${from}-${to}`,
      ...(narrowed !== undefined && { narrowed }),
    });
  }

  /** A ranged read of the fact's lines of a file, as a model narrows a `read_file`. */
  static ranged(path: string, line: number): CallSpec {
    const offset = Math.max(1, line - READ_AROUND);
    return { name: "read_file", args: { path, offset, limit: 2 * READ_AROUND + 1 } };
  }

  /** Customer records with the email of entry `index` as a fact (read back with a slice). */
  records(id: string, endpoint: string, count: number, seed: number, index: number): CallSpec {
    const list = records(count, seed);
    const source = this.fetch(endpoint, list);
    const needle = (list[index] as { email: string }).email;
    this.facts.set(id, {
      id,
      needle,
      sourceCallId: "",
      source,
      line: 1,
      selector: `slice:${Math.max(0, index - 2)}..${index + 3}`,
    });
    return source;
  }

  /**
   * The largest `amount_cents` of the records at `endpoint` as a fact ("what is the biggest
   * invoice"), read back with a slice of the entry that has it.
   */
  largestAmount(id: string, endpoint: string): void {
    const list = JSON.parse(this.apis.get(endpoint) ?? "[]") as { amount_cents: number }[];
    let largest = 0;
    list.forEach((entry, i) => {
      if (entry.amount_cents > (list[largest]?.amount_cents ?? 0)) largest = i;
    });
    this.facts.set(id, {
      id,
      needle: `${list[largest]?.amount_cents}`,
      sourceCallId: "",
      source: { name: "fetch_api", args: { endpoint } },
      line: 1,
      selector: `slice:${largest}..${largest + 1}`,
    });
  }

  need(id: string): Step {
    const fact = this.facts.get(id);
    if (fact === undefined) throw new Error(`no fact ${id}`);
    return { kind: "need", fact };
  }

  workspace(): Workspace {
    return {
      files: this.files,
      searches: this.searches,
      listings: this.listings,
      recordsJson: "[]",
      configJson: "{}",
      commands: this.commands,
      apis: this.apis,
    };
  }
}
