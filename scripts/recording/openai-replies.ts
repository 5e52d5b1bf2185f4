// Replies in the OpenAI chat completions shape (POST /v1/chat/completions, stream: true): `data:` chunks whose
// deltas carry reasoning, content or tool calls, a finish reason, a usage chunk, then `data: [DONE]`.
import { randomBytes } from "node:crypto";
import type * as http from "node:http";
import { chunkText, isRecord, sleep, type MockReply } from "./mock-model-server";

export interface OpenAIToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
  /** The arguments' JSON text goes out in pieces of this many characters. */
  readonly argumentChunkSize?: number;
}

export interface OpenAITurn {
  /** Sent as `delta.reasoning_content`, the field llama.cpp and others use. */
  readonly reasoning?: readonly string[];
  readonly content?: readonly string[];
  readonly toolCalls?: readonly OpenAIToolCall[];
  readonly finishReason: "stop" | "tool_calls" | "length";
  /** A pause before each delta, so a recording can interrupt the answer mid-stream. */
  readonly deltaDelayMs?: number;
}

export function openaiStream(turn: OpenAITurn): MockReply {
  return async (request, response) => {
    const model = isRecord(request.body) && typeof request.body.model === "string" ? request.body.model : "mock-model";
    const id = `chatcmpl-mock${randomBytes(10).toString("hex")}`;
    const created = Math.floor(Date.now() / 1000);
    response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
    const send = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      response.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices, ...extra })}\n\n`);
    const sendDelta = (delta: Record<string, unknown>) => send([{ index: 0, delta, finish_reason: null }]);
    let deltas = 0;
    const pause = async () => {
      deltas++;
      if (turn.deltaDelayMs) await sleep(turn.deltaDelayMs);
      return request.clientGone();
    };
    sendDelta({ role: "assistant", content: "" });
    for (const reasoning_content of turn.reasoning ?? []) {
      if (await pause()) return `200 stream cut after ${deltas} deltas`;
      sendDelta({ reasoning_content });
    }
    for (const content of turn.content ?? []) {
      if (await pause()) return `200 stream cut after ${deltas} deltas`;
      sendDelta({ content });
    }
    for (const [index, call] of (turn.toolCalls ?? []).entries()) {
      const pieces = chunkText(JSON.stringify(call.arguments), call.argumentChunkSize ?? 12);
      sendDelta({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] });
      for (const piece of pieces) {
        if (await pause()) return `200 stream cut after ${deltas} deltas`;
        sendDelta({ tool_calls: [{ index, function: { arguments: piece } }] });
      }
    }
    send([{ index: 0, delta: {}, finish_reason: turn.finishReason }]);
    send([], { usage: { prompt_tokens: 120, completion_tokens: Math.max(1, deltas), total_tokens: 120 + Math.max(1, deltas) } });
    response.end("data: [DONE]\n\n");
    const parts = [turn.reasoning ? "reasoning" : "", turn.content ? "content" : "", turn.toolCalls ? "tool_calls" : ""].filter(Boolean);
    return `200 stream ${parts.join("+")} (${deltas} deltas, ${turn.finishReason})`;
  };
}

/** An API error in OpenAI's shape: the HTTP status and `{ error: { message, type, code } }`. */
export function openaiError(status: number, type: string, code: string | null, message: string, headers: http.OutgoingHttpHeaders = {}): MockReply {
  return async (_request, response) => {
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(JSON.stringify({ error: { message, type, param: null, code } }));
    return `${status} ${type}`;
  };
}

/** 401 as OpenAI words it, for `key`. */
export function openaiInvalidKey(key: string): MockReply {
  return openaiError(401, "invalid_request_error", "invalid_api_key", `Incorrect API key provided: ${key}.`);
}

export function openaiServerError(headers: http.OutgoingHttpHeaders = {}): MockReply {
  return openaiError(500, "server_error", null, "The server had an error while processing your request.", headers);
}

/** 429 with `retry-after: 1`, which every CLI recorded here honours. */
export function openaiRateLimited(): MockReply {
  return openaiError(429, "requests", "rate_limit_exceeded", "Rate limit reached for requests", { "retry-after": "1" });
}
