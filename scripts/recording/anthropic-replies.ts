// Replies in the Anthropic Messages API's shape (POST /v1/messages, stream: true), as server-sent events:
// message_start, content blocks with their deltas, message_delta (stop reason, usage), message_stop.
import { randomBytes } from "node:crypto";
import type * as http from "node:http";
import { chunkText, isRecord, sleep, type MockReply } from "./mock-model-server";

export type AnthropicBlock =
  | { readonly type: "text"; readonly chunks: readonly string[] }
  | { readonly type: "thinking"; readonly chunks: readonly string[]; readonly signature: string }
  /** The input is sent as `input_json_delta`s of its JSON text, `jsonChunkSize` characters each. */
  | { readonly type: "tool_use"; readonly id: string; readonly name: string; readonly input: unknown; readonly jsonChunkSize?: number };

export interface AnthropicTurn {
  readonly blocks: readonly AnthropicBlock[];
  readonly stopReason: "end_turn" | "tool_use" | "max_tokens";
  /** A pause before each delta: slow answers give a recording time to interrupt them mid-stream. */
  readonly deltaDelayMs?: number;
}

/** One streamed assistant turn. Stops writing when the client goes away. */
export function anthropicStream(turn: AnthropicTurn): MockReply {
  return async (request, response) => {
    const model = isRecord(request.body) && typeof request.body.model === "string" ? request.body.model : "claude-mock";
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "request-id": `req_mock_${randomBytes(8).toString("hex")}`,
    });
    const send = (type: string, data: Record<string, unknown>) => response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    const messageId = `msg_mock_${randomBytes(10).toString("hex")}`;
    send("message_start", {
      message: {
        id: messageId,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 120, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    });
    send("ping", {});
    let deltas = 0;
    const pause = async () => {
      deltas++;
      if (turn.deltaDelayMs) await sleep(turn.deltaDelayMs);
      return request.clientGone();
    };
    for (const [index, block] of turn.blocks.entries()) {
      send("content_block_start", { index, content_block: blockStart(block) });
      for (const delta of blockDeltas(block)) {
        if (await pause()) return `200 stream cut after ${deltas} deltas`;
        send("content_block_delta", { index, delta });
      }
      send("content_block_stop", { index });
    }
    send("message_delta", {
      delta: { stop_reason: turn.stopReason, stop_sequence: null },
      usage: { output_tokens: Math.max(1, deltas) },
    });
    send("message_stop", {});
    response.end();
    return `200 stream ${turn.blocks.map((block) => block.type).join("+")} (${deltas} deltas, ${turn.stopReason})`;
  };
}

/** An API error: the HTTP status with Anthropic's error body, e.g. 401 authentication_error, 529 overloaded_error. */
export function anthropicError(status: number, errorType: string, message: string, headers: http.OutgoingHttpHeaders = {}): MockReply {
  return async (_request, response) => {
    response.writeHead(status, {
      "content-type": "application/json",
      "request-id": `req_mock_${randomBytes(8).toString("hex")}`,
      ...headers,
    });
    response.end(JSON.stringify({ type: "error", error: { type: errorType, message } }));
    return `${status} ${errorType}`;
  };
}

function blockStart(block: AnthropicBlock): Record<string, unknown> {
  switch (block.type) {
    case "text":
      return { type: "text", text: "" };
    case "thinking":
      return { type: "thinking", thinking: "", signature: "" };
    case "tool_use":
      return { type: "tool_use", id: block.id, name: block.name, input: {} };
  }
}

function blockDeltas(block: AnthropicBlock): Record<string, unknown>[] {
  switch (block.type) {
    case "text":
      return block.chunks.map((text) => ({ type: "text_delta", text }));
    case "thinking":
      return [...block.chunks.map((thinking) => ({ type: "thinking_delta", thinking })), { type: "signature_delta", signature: block.signature }];
    case "tool_use":
      return chunkText(JSON.stringify(block.input), block.jsonChunkSize ?? 12).map((partial_json) => ({ type: "input_json_delta", partial_json }));
  }
}
