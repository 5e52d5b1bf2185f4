// Replies in the Gemini API's shape (POST /v1beta/models/<model>:streamGenerateContent?alt=sse), as server-sent
// events: each `data:` line is a GenerateContentResponse chunk whose candidate carries parts (text, thought text,
// whole function calls); the last one has the finish reason and usageMetadata.
import { randomBytes } from "node:crypto";
import type * as http from "node:http";
import { modelInPath, sleep, type MockReply } from "./mock-model-server";

export interface GeminiFunctionCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export interface GeminiTurn {
  /** Sent as parts with `thought: true` (what Gemini 2.5 sends when `includeThoughts` is asked for). */
  readonly thoughts?: readonly string[];
  readonly text?: readonly string[];
  /** Gemini sends each call whole, in one part: there are no argument deltas. */
  readonly functionCalls?: readonly GeminiFunctionCall[];
  readonly finishReason?: "STOP" | "MAX_TOKENS";
  /** A pause before each chunk, so a recording can interrupt the answer mid-stream. */
  readonly deltaDelayMs?: number;
}

export function geminiStream(turn: GeminiTurn): MockReply {
  return async (request, response) => {
    const modelVersion = modelInPath(request.path) ?? "gemini-mock";
    const responseId = randomBytes(12).toString("base64url");
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (parts: readonly Record<string, unknown>[], last: boolean) => {
      const candidate: Record<string, unknown> = { content: { parts, role: "model" }, index: 0 };
      if (last) candidate.finishReason = turn.finishReason ?? "STOP";
      const chunk = { candidates: [candidate], usageMetadata: usage(chunks, thoughtChunks), modelVersion, responseId };
      response.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    };
    const thoughtChunks = turn.thoughts?.length ?? 0;
    const parts: Record<string, unknown>[] = [
      ...(turn.thoughts ?? []).map((text) => ({ text, thought: true })),
      ...(turn.text ?? []).map((text) => ({ text })),
      ...(turn.functionCalls ?? []).map((call) => ({ functionCall: { name: call.name, args: call.args } })),
    ];
    let chunks = 0;
    for (const [index, part] of parts.entries()) {
      if (turn.deltaDelayMs) await sleep(turn.deltaDelayMs);
      if (request.clientGone()) return `200 stream cut after ${chunks} chunks`;
      chunks++;
      send([part], index === parts.length - 1);
    }
    if (parts.length === 0) send([{ text: "" }], true);
    response.end();
    const kinds = [turn.thoughts ? "thoughts" : "", turn.text ? "text" : "", turn.functionCalls ? "functionCall" : ""].filter(Boolean);
    return `200 stream ${kinds.join("+")} (${chunks} chunks, ${turn.finishReason ?? "STOP"})`;
  };
}

function usage(outputChunks: number, thoughtChunks: number): Record<string, number> {
  const candidatesTokenCount = Math.max(1, outputChunks - thoughtChunks);
  return {
    promptTokenCount: 120,
    candidatesTokenCount,
    ...(thoughtChunks > 0 ? { thoughtsTokenCount: thoughtChunks } : {}),
    totalTokenCount: 120 + candidatesTokenCount + thoughtChunks,
  };
}

/** An API error in Google's shape: the HTTP status and `{ error: { code, message, status } }` (e.g. 401 UNAUTHENTICATED). */
export function geminiError(code: number, status: string, message: string, headers: http.OutgoingHttpHeaders = {}): MockReply {
  return async (_request, response) => {
    response.writeHead(code, { "content-type": "application/json; charset=UTF-8", ...headers });
    response.end(JSON.stringify({ error: { code, message, status } }));
    return `${code} ${status}`;
  };
}
