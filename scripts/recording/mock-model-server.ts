// A scripted model server on 127.0.0.1 for recording real agent CLIs: each scenario lists the replies to serve,
// in order, to the model requests the CLI makes. It speaks just enough HTTP to be the model service; the bodies
// come from anthropic-replies.ts, openai-replies.ts, responses-replies.ts and gemini-replies.ts.
import { EventEmitter } from "node:events";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";

/** A model request as the server saw it. */
export interface ModelRequest {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  /** Set when the client went away (an interrupted CLI closes its connection). */
  readonly clientGone: () => boolean;
}

/** Writes one reply and says in a few words what it served, for the run's request log. */
export type MockReply = (request: ModelRequest, response: http.ServerResponse) => Promise<string>;

/**
 * A request a CLI makes besides the conversation (opencode asks its small model for a session title): answered by
 * `reply` without taking a scripted reply, so scenarios list only the conversation's replies.
 */
export interface SideRequest {
  /** A word for the request log: "title". */
  readonly name: string;
  readonly matches: (request: ModelRequest) => boolean;
  readonly reply: MockReply;
}

/** One line of the request log kept in each recording's meta file. */
export interface RequestLogEntry {
  readonly method: string;
  readonly path: string;
  /** What the request was for: its model, how many messages, and what the last message carried. */
  readonly summary: string;
  readonly served: string;
  readonly atMs: number;
}

/**
 * Paths whose POSTs take the next scripted reply: Anthropic Messages, OpenAI chat completions and Responses, and
 * Gemini's streamGenerateContent, whose path names the model. Anything else is answered 404 and logged.
 */
const MODEL_PATHS: readonly RegExp[] = [/^\/v1\/messages$/, /^\/v1\/chat\/completions$/, /^\/v1\/responses$/, /^\/v1beta\/models\/[^/:]+:streamGenerateContent$/];

function isModelPath(urlPath: string): boolean {
  return MODEL_PATHS.some((pattern) => pattern.test(urlPath));
}

export class MockModelServer extends EventEmitter {
  private replies: MockReply[] = [];
  private otherwise: MockReply | undefined;
  private sideRequests: readonly SideRequest[] = [];
  private startedAt = Date.now();
  private log: RequestLogEntry[] = [];
  private inFlight = 0;
  private dumpFolder: string | undefined;
  private requestCount = 0;

  private constructor(
    private readonly server: http.Server,
    readonly port: number,
  ) {
    super();
  }

  static async start(): Promise<MockModelServer> {
    const server = http.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const mock = new MockModelServer(server, (server.address() as AddressInfo).port);
    server.on("request", (request, response) => void mock.handle(request, response));
    return mock;
  }

  /** Starts a new scenario: `replies` are served in order, then `otherwise` (or a 500 saying the script ran out). */
  script(replies: readonly MockReply[], otherwise?: MockReply, sideRequests: readonly SideRequest[] = []): void {
    this.replies = [...replies];
    this.otherwise = otherwise;
    this.sideRequests = sideRequests;
    this.log = [];
    this.startedAt = Date.now();
    this.requestCount = 0;
  }

  /**
   * Writes each request of the scenario to come, body and all, as <folder>/<n>.json: the tool schemas a CLI sends
   * are where a scenario's tool names and argument keys come from. `undefined` stops it.
   */
  dumpRequestsTo(folder: string | undefined): void {
    this.dumpFolder = folder;
    if (folder) fs.mkdirSync(folder, { recursive: true });
  }

  get requestLog(): readonly RequestLogEntry[] {
    return this.log;
  }

  /** Resolves once no reply is being written (a cut-short stream ends at its next delta), or after `timeoutMs`. */
  idle(timeoutMs: number): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.off("reply-finished", check);
        resolve();
      };
      const check = () => {
        if (this.inFlight === 0) finish();
      };
      const timer = setTimeout(finish, timeoutMs);
      this.on("reply-finished", check);
    });
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const path = (request.url ?? "/").split("?")[0] ?? "/";
    const text = await readBody(request);
    const body = parseJson(text);
    let gone = false;
    response.on("close", () => {
      if (!response.writableFinished) gone = true;
    });
    const modelRequest: ModelRequest = { method: request.method ?? "GET", path, body, clientGone: () => gone };
    // A request cut short can finish after the next scenario began: its entry belongs to the log of its own.
    const log = this.log;
    const atMs = Date.now() - this.startedAt;
    this.dump({ method: modelRequest.method, url: request.url, headers: request.headers, body });
    const reply = request.method === "POST" && isModelPath(path) ? this.replyTo(modelRequest) : notFound;
    this.inFlight++;
    let served: string;
    try {
      served = await reply(modelRequest, response);
    } catch (error) {
      served = `reply failed: ${error instanceof Error ? error.message : String(error)}`;
      if (!response.headersSent) response.writeHead(500);
      response.end();
    }
    if (gone) served += " (client went away)";
    this.inFlight--;
    log.push({ method: modelRequest.method, path, summary: summarise(body, path), served, atMs });
    this.emit("reply-finished");
  }

  private dump(request: unknown): void {
    if (!this.dumpFolder) return;
    fs.writeFileSync(path.join(this.dumpFolder, `${++this.requestCount}.json`), `${JSON.stringify(request, null, 2)}\n`);
  }

  private replyTo(request: ModelRequest): MockReply {
    const side = this.sideRequests.find((candidate) => candidate.matches(request));
    if (side) return async (...args) => `${side.name}: ${await side.reply(...args)}`;
    return this.replies.shift() ?? this.otherwise ?? scriptRanOut;
  }
}

const notFound: MockReply = async (request, response) => {
  response.writeHead(404, { "content-type": "application/json" });
  response.end(JSON.stringify({ error: `mock model server: no route for ${request.method} ${request.path}` }));
  return "404 no route";
};

const scriptRanOut: MockReply = async (_request, response) => {
  response.writeHead(500, { "content-type": "application/json" });
  response.end(JSON.stringify({ type: "error", error: { type: "api_error", message: "mock model server: the scenario has no reply left" } }));
  return "500 script ran out";
};

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * "model=x stream=true messages=3 last=user[tool_result] tools=Read,Bash": enough to check a tool result went back,
 * or thinking was asked for, in any of the four APIs (Gemini's `contents`, the Responses API's `input`).
 */
function summarise(body: unknown, urlPath: string): string {
  if (!isRecord(body)) return typeof body === "string" && body.length > 0 ? "non-JSON body" : "no body";
  const messages = conversationOf(body);
  const last: unknown = messages[messages.length - 1];
  const lastPart = isRecord(last) ? ` last=${describeMessage(last)}` : "";
  const thinking = body.thinking !== undefined ? ` thinking=${JSON.stringify(body.thinking)}` : "";
  const effort = body.reasoning_effort !== undefined ? ` reasoning_effort=${String(body.reasoning_effort)}` : "";
  const reasoning = body.reasoning !== undefined ? ` reasoning=${JSON.stringify(body.reasoning)}` : "";
  const geminiThinking = isRecord(body.generationConfig) && body.generationConfig.thinkingConfig !== undefined ? ` thinkingConfig=${JSON.stringify(body.generationConfig.thinkingConfig)}` : "";
  const tools = toolNames(body.tools);
  const toolList = tools.length > 0 ? ` tools=${tools.join(",")}` : "";
  // Gemini names the model in the path, and streams because of the path (…:streamGenerateContent), not a field.
  const model = body.model ?? modelInPath(urlPath);
  return `model=${String(model)} stream=${String(body.stream)} messages=${messages.length}${lastPart}${thinking}${effort}${reasoning}${geminiThinking}${toolList}`;
}

function conversationOf(body: Record<string, unknown>): readonly unknown[] {
  for (const key of ["messages", "input", "contents"]) {
    const value = body[key];
    if (Array.isArray(value)) return value;
  }
  return [];
}

/** "user[tool_result]" (Anthropic, OpenAI), "user[functionResponse]" (Gemini), "function_call_output" (Responses item). */
function describeMessage(message: Record<string, unknown>): string {
  const content = message.content ?? message.parts;
  const kinds = Array.isArray(content) ? content.map(partKind).join(",") : typeof content;
  if (message.role === undefined && typeof message.type === "string") return message.type;
  return `${String(message.role)}[${kinds}]`;
}

function partKind(part: unknown): string {
  if (!isRecord(part)) return typeof part;
  if (typeof part.type === "string") return part.type;
  return Object.keys(part).filter((key) => key !== "thoughtSignature").join("+") || "empty";
}

/** Tool names in any of the APIs' shapes: `{name}`, `{function: {name}}`, Gemini's `{functionDeclarations: [{name}]}`. */
function toolNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool): string[] => {
    if (!isRecord(tool)) return [];
    if (Array.isArray(tool.functionDeclarations)) return toolNames(tool.functionDeclarations);
    if (typeof tool.name === "string") return [tool.name];
    if (isRecord(tool.function) && typeof tool.function.name === "string") return [tool.function.name];
    return typeof tool.type === "string" ? [tool.type] : [];
  });
}

/** Gemini's `/v1beta/models/<model>:streamGenerateContent` names its model in the path. */
export function modelInPath(urlPath: string): string | undefined {
  return /\/models\/([^/:]+):/.exec(urlPath)?.[1];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `text` in pieces of `size` characters: how a streamed JSON argument arrives. */
export function chunkText(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let at = 0; at < text.length; at += size) parts.push(text.slice(at, at + size));
  return parts;
}
