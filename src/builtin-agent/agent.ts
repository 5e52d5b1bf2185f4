// One request, start to answer: recognise what is asked, use the tools it needs (each a tool card), then stream
// the answer. Ending the stream (`done`) is the caller's job, so that a signal can end it at any point.
import * as path from "node:path";
import type { ProtocolEmitter } from "./emitter";
import { intentOf, type Intent } from "./intents";
import { ReportedTools } from "./reported-tools";
import { streamText } from "./text-pacer";
import type { AnswerContext } from "./answers/answer-context";
import { answerCapabilities } from "./answers/capabilities";
import { answerExplainFile } from "./answers/explain-file";
import { answerFindText } from "./answers/find-text";
import { answerSummary } from "./answers/summary";
import { answerTodos } from "./answers/todos";

export interface AgentRequest {
  prompt: string;
  workspace: string;
  /** Pause between text deltas. */
  delayMs: number;
}

export async function answerRequest(request: AgentRequest, emitter: ProtocolEmitter, signal: AbortSignal): Promise<void> {
  const intent = intentOf(request.prompt);
  await emitter.status("working", describeIntent(intent));
  const context: AnswerContext = {
    tools: new ReportedTools(emitter, request.workspace, signal),
    think: (text) => emitter.thinking(text),
    workspaceName: path.basename(request.workspace),
  };
  const markdown = await answerFor(intent, context, request.prompt);
  if (signal.aborted) return;
  await emitter.status("streaming", "Writing the answer");
  await streamText(emitter, markdown, request.delayMs, signal);
}

function answerFor(intent: Intent, context: AnswerContext, prompt: string): Promise<string> {
  switch (intent.kind) {
    case "summary":
      return answerSummary(context);
    case "find":
      return answerFindText(context, intent.text);
    case "explain":
      return answerExplainFile(context, intent.path);
    case "todos":
      return answerTodos(context);
    case "unknown":
      return Promise.resolve(answerCapabilities(prompt));
  }
}

function describeIntent(intent: Intent): string {
  switch (intent.kind) {
    case "summary":
      return "Summarising the workspace";
    case "find":
      return `Finding ${JSON.stringify(intent.text)}`;
    case "explain":
      return `Explaining ${intent.path}`;
    case "todos":
      return "Listing TODO and FIXME comments";
    case "unknown":
      return "Not a request I know; explaining what I can do";
  }
}
