// What the built-in agent's answers are written with, for a workspace folder a test made: the real tools, their
// cards written nowhere, and no thinking aloud.
import { Writable } from "node:stream";
import type { AnswerContext } from "../../src/builtin-agent/answers/answer-context";
import { ProtocolEmitter } from "../../src/builtin-agent/emitter";
import { ReportedTools } from "../../src/builtin-agent/reported-tools";

export async function answerContextIn(root: string): Promise<AnswerContext> {
  const emitter = new ProtocolEmitter(new Writable({ write: (_chunk, _encoding, callback) => callback() }));
  await emitter.start({ command: "exec" });
  return { tools: new ReportedTools(emitter, root, new AbortController().signal), think: async () => {}, workspaceName: "sample" };
}
