// Replies in the OpenAI Responses API's shape (POST /v1/responses, stream: true), as server-sent events:
// response.created, then per output item output_item.added, its deltas (reasoning summary text, output text,
// function-call arguments) and output_item.done, then response.completed with usage. Errors have the chat
// completions API's body: `openaiError` in openai-replies.ts.
import { randomBytes } from "node:crypto";
import { chunkText, isRecord, sleep, type MockReply } from "./mock-model-server";

export type ResponsesItem =
  | { readonly type: "reasoning"; readonly summary: readonly string[] }
  | { readonly type: "message"; readonly chunks: readonly string[] }
  /** A JSON-schema tool: `arguments` go out as deltas of their JSON text. */
  | { readonly type: "function_call"; readonly callId: string; readonly name: string; readonly arguments: unknown }
  /** A freeform tool (Codex's `apply_patch` grammar tool): `input` is plain text, sent as deltas. */
  | { readonly type: "custom_tool_call"; readonly callId: string; readonly name: string; readonly input: string };

export interface ResponsesTurn {
  readonly items: readonly ResponsesItem[];
  /** A pause before each delta, so a recording can interrupt the answer mid-stream. */
  readonly deltaDelayMs?: number;
}

const ARGUMENT_CHUNK = 12;

export function responsesStream(turn: ResponsesTurn): MockReply {
  return async (request, response) => {
    const model = isRecord(request.body) && typeof request.body.model === "string" ? request.body.model : "mock-model";
    const responseId = `resp_mock_${randomBytes(12).toString("hex")}`;
    const createdAt = Math.floor(Date.now() / 1000);
    response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-request-id": `req_${randomBytes(8).toString("hex")}` });
    let sequence = 0;
    const send = (type: string, data: Record<string, unknown>) =>
      response.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
    const envelope = (status: string, output: unknown[], usage: unknown) => ({
      id: responseId,
      object: "response",
      created_at: createdAt,
      status,
      model,
      output,
      usage,
    });
    let deltas = 0;
    const pause = async () => {
      deltas++;
      if (turn.deltaDelayMs) await sleep(turn.deltaDelayMs);
      return request.clientGone();
    };
    send("response.created", { response: envelope("in_progress", [], null) });
    send("response.in_progress", { response: envelope("in_progress", [], null) });
    const done: unknown[] = [];
    for (const [outputIndex, item] of turn.items.entries()) {
      const itemId = `${itemPrefix(item)}_mock_${randomBytes(10).toString("hex")}`;
      send("response.output_item.added", { output_index: outputIndex, item: startedItem(item, itemId) });
      for (const delta of itemDeltas(item, itemId, outputIndex)) {
        if (await pause()) return `200 stream cut after ${deltas} deltas`;
        send(delta.type, delta.data);
      }
      for (const closing of itemClosings(item, itemId, outputIndex)) send(closing.type, closing.data);
      const finished = finishedItem(item, itemId);
      done.push(finished);
      send("response.output_item.done", { output_index: outputIndex, item: finished });
    }
    const outputTokens = Math.max(1, deltas);
    const reasoningTokens = turn.items.some((item) => item.type === "reasoning") ? 8 : 0;
    send("response.completed", {
      response: envelope("completed", done, {
        input_tokens: 120,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: outputTokens,
        output_tokens_details: { reasoning_tokens: reasoningTokens },
        total_tokens: 120 + outputTokens,
      }),
    });
    response.end();
    return `200 stream ${turn.items.map((item) => item.type).join("+")} (${deltas} deltas)`;
  };
}

interface StreamEvent {
  readonly type: string;
  readonly data: Record<string, unknown>;
}

function itemPrefix(item: ResponsesItem): string {
  switch (item.type) {
    case "reasoning":
      return "rs";
    case "message":
      return "msg";
    case "function_call":
      return "fc";
    case "custom_tool_call":
      return "ctc";
  }
}

function startedItem(item: ResponsesItem, id: string): Record<string, unknown> {
  switch (item.type) {
    case "reasoning":
      return { id, type: "reasoning", summary: [] };
    case "message":
      return { id, type: "message", status: "in_progress", role: "assistant", content: [] };
    case "function_call":
      return { id, type: "function_call", status: "in_progress", call_id: item.callId, name: item.name, arguments: "" };
    case "custom_tool_call":
      return { id, type: "custom_tool_call", status: "in_progress", call_id: item.callId, name: item.name, input: "" };
  }
}

function finishedItem(item: ResponsesItem, id: string): Record<string, unknown> {
  switch (item.type) {
    case "reasoning":
      return { id, type: "reasoning", summary: [{ type: "summary_text", text: item.summary.join("") }] };
    case "message":
      return { id, type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: item.chunks.join(""), annotations: [] }] };
    case "function_call":
      return { id, type: "function_call", status: "completed", call_id: item.callId, name: item.name, arguments: JSON.stringify(item.arguments) };
    case "custom_tool_call":
      return { id, type: "custom_tool_call", status: "completed", call_id: item.callId, name: item.name, input: item.input };
  }
}

function itemDeltas(item: ResponsesItem, itemId: string, outputIndex: number): StreamEvent[] {
  const at = { item_id: itemId, output_index: outputIndex };
  switch (item.type) {
    case "reasoning":
      return [
        { type: "response.reasoning_summary_part.added", data: { ...at, summary_index: 0, part: { type: "summary_text", text: "" } } },
        ...item.summary.map((delta) => ({ type: "response.reasoning_summary_text.delta", data: { ...at, summary_index: 0, delta } })),
      ];
    case "message":
      return [
        { type: "response.content_part.added", data: { ...at, content_index: 0, part: { type: "output_text", text: "", annotations: [] } } },
        ...item.chunks.map((delta) => ({ type: "response.output_text.delta", data: { ...at, content_index: 0, delta } })),
      ];
    case "function_call":
      return chunkText(JSON.stringify(item.arguments), ARGUMENT_CHUNK).map((delta) => ({ type: "response.function_call_arguments.delta", data: { ...at, delta } }));
    case "custom_tool_call":
      return chunkText(item.input, ARGUMENT_CHUNK * 4).map((delta) => ({ type: "response.custom_tool_call_input.delta", data: { ...at, delta } }));
  }
}

function itemClosings(item: ResponsesItem, itemId: string, outputIndex: number): StreamEvent[] {
  const at = { item_id: itemId, output_index: outputIndex };
  switch (item.type) {
    case "reasoning": {
      const text = item.summary.join("");
      return [
        { type: "response.reasoning_summary_text.done", data: { ...at, summary_index: 0, text } },
        { type: "response.reasoning_summary_part.done", data: { ...at, summary_index: 0, part: { type: "summary_text", text } } },
      ];
    }
    case "message": {
      const text = item.chunks.join("");
      return [
        { type: "response.output_text.done", data: { ...at, content_index: 0, text } },
        { type: "response.content_part.done", data: { ...at, content_index: 0, part: { type: "output_text", text, annotations: [] } } },
      ];
    }
    case "function_call":
      return [{ type: "response.function_call_arguments.done", data: { ...at, arguments: JSON.stringify(item.arguments) } }];
    case "custom_tool_call":
      return [{ type: "response.custom_tool_call_input.done", data: { ...at, input: item.input } }];
  }
}
