// "Find <text>" on a workspace: every line that holds the text, ignoring case, and a clear answer for a text too long
// to be a search term.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { answerFindText } from "../../../../src/builtin-agent/answers/find-text";
import { answerContextIn } from "../../../helpers/answer-context";

describe("the find answer", () => {
  let root: string;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-find-"));
    fs.writeFileSync(path.join(root, "notes.txt"), "one\nthe Cart (and [its] price)\ntwo\n");
  });

  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("lists each line that holds the text, whatever its case and its regular-expression characters", async () => {
    const text = await answerFindText(await answerContextIn(root), "CART (and [its]");
    assert.match(text, /^1 match across 1 file \(1 file searched\):$/m);
    assert.match(text, /- `notes\.txt:2` — `the Cart \(and \[its\] price\)`/);
  });

  it("says how long a text it looks for when asked for a 40,000-character one, which once failed as a regular expression", async () => {
    const text = await answerFindText(await answerContextIn(root), "a".repeat(40_000));
    assert.equal(text, "I look for texts of up to 1,000 characters, and this one has 40,000. Ask me to find a shorter part of it.\n");
  });
});
