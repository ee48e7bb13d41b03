import { describe, expect, it } from "vitest";
import { helpText, matchingCommands, parseSlashCommand, SLASH_COMMANDS } from "./slash-commands.js";

describe("slash commands", () => {
  it("reads a command and its argument, and leaves paths and prose alone", () => {
    expect(parseSlashCommand("  /Resume  0190abc ")).toEqual({ name: "resume", argument: "0190abc" });
    expect(parseSlashCommand("/help")).toEqual({ name: "help", argument: "" });
    expect(parseSlashCommand("/etc/hosts is wrong")).toBeUndefined();
    expect(parseSlashCommand("what does /help do")).toBeUndefined();
  });

  it("hints the commands that start with what was typed", () => {
    expect(matchingCommands("/").map((c) => c.name)).toEqual(SLASH_COMMANDS.map((c) => c.name));
    expect(matchingCommands("/co").map((c) => c.name)).toEqual(["compact"]);
    expect(matchingCommands("/compact now")).toEqual([]);
  });

  it("lists every command and the keys in /help", () => {
    const help = helpText();
    for (const command of SLASH_COMMANDS) expect(help).toContain(command.usage);
    expect(help).toContain("Esc");
  });
});
