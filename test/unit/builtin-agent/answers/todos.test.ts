// "List the TODOs" on a workspace whose files are anyone's: lines built against the marker's pattern are read in
// time linear in them, and the markers around them are still found.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { answerTodos } from "../../../../src/builtin-agent/answers/todos";
import { answerContextIn } from "../../../helpers/answer-context";
import { assertQuickOnAsync, repeated } from "../../../helpers/hostile-text";

/** Under ReadFile's 1 MiB, so the line is searched and not skipped as too large. */
const LINE_CHARS = 1_000_000;

describe("the TODO answer", () => {
  let root: string;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "agent-stream-todos-"));
  });

  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  async function answer(): Promise<string> {
    return answerTodos(await answerContextIn(root));
  }

  it("lists each marker with its file, line and note", async () => {
    fs.writeFileSync(path.join(root, "a.py"), "x = 1\n# TODO(ana): split this\n");
    fs.writeFileSync(path.join(root, "b.ts"), "/* FIXME: leaks */\nconst todo = 1;\n");
    const text = await answer();
    assert.match(text, /- `a\.py:2` — \*\*TODO\*\* split this/);
    assert.match(text, /- `b\.ts:1` — \*\*FIXME\*\* leaks/);
    assert.match(text, /2 markers: 1 TODO and 1 FIXME in 2 files/);
  });

  it("searches megabyte lines of comment characters in well under a second, and finds the markers after them", async () => {
    for (const [name, unit] of [["hashes.py", "#"], ["slashes.ts", "/"], ["semicolons.lisp", ";"]]) {
      fs.writeFileSync(path.join(root, name), `${repeated(unit, LINE_CHARS)}\n${unit}${unit} TODO: after the run\n`);
    }
    const text = await assertQuickOnAsync("three megabyte lines", answer);
    assert.match(text, /3 markers: 3 TODOs and 0 FIXMEs in 3 files/);
  });
});
