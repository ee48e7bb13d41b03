import { describe, expect, it } from "vitest";
import { shellWords } from "./shell-words.js";

describe("shellWords", () => {
  it("quotes each word that is not plain, so the line splits as the command is run", () => {
    expect(shellWords(["node", "server.js", "--port=8080"])).toBe("node server.js --port=8080");
    expect(shellWords(["sh", "-c", "touch /tmp/x; rm -rf ~"])).toBe("sh -c 'touch /tmp/x; rm -rf ~'");
    expect(shellWords(["echo", "it's", ""])).toBe("echo 'it'\\''s' ''");
    expect(shellWords(["printf", "$HOME", "a\nb"])).toBe("printf '$HOME' 'a\nb'");
  });
});
