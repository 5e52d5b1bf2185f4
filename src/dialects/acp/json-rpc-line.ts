// One line of a client's log of ACP traffic: a JSON-RPC 2.0 message (a request, a notification or a response), as
// the wire carries it or wrapped with the direction the client saw it go, `{"direction": "incoming" | "outgoing",
// "message": {…}}` (incoming: from the agent). Only the envelope is read here; each method's params are the
// adapter's business.
import * as z from "zod/mini";
import { isRecord } from "../../protocol/json-record";
import { accepted, lineSchema, Malformed } from "../kit/line-schema";

/** From the client's side: `incoming` came from the agent, `outgoing` went to it. */
export type Direction = "incoming" | "outgoing";

export type RpcId = string | number;

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export type RpcMessage =
  | { kind: "request"; id: RpcId; method: string; params: unknown; direction: Direction | undefined }
  | { kind: "notification"; method: string; params: unknown; direction: Direction | undefined }
  | { kind: "response"; id: RpcId | null; result: unknown; error: RpcError | undefined; direction: Direction | undefined };

const Id = accepted("string or number", (value): value is RpcId => typeof value === "string" || typeof value === "number");
const RequestSchema = lineSchema(z.object({ jsonrpc: z.literal("2.0"), id: Id, method: z.string(), params: z.optional(z.unknown()) }));
const NotificationSchema = lineSchema(z.object({ jsonrpc: z.literal("2.0"), method: z.string(), params: z.optional(z.unknown()) }));
const ResponseSchema = lineSchema(
  z.object({
    jsonrpc: z.literal("2.0"),
    id: z.nullable(Id),
    result: z.optional(z.unknown()),
    error: z.optional(z.object({ code: z.number(), message: z.string(), data: z.optional(z.unknown()) })),
  }),
);
const WrappedSchema = lineSchema(z.object({ direction: z.enum(["incoming", "outgoing"]), message: z.record(z.string(), z.unknown()) }));

/** Whether `auto` should read the stream as ACP traffic: a JSON-RPC 2.0 message, bare or wrapped. */
export function isAcpTrafficLine(value: Record<string, unknown>): boolean {
  if (value.jsonrpc === "2.0") return true;
  return WrappedSchema.matches(value) && value.message.jsonrpc === "2.0";
}

/** The line as a message, or what is wrong with it. */
export function readRpcMessage(value: Record<string, unknown>): RpcMessage | Malformed {
  if (value.jsonrpc !== "2.0" && "direction" in value) {
    const wrapped = WrappedSchema.read(value);
    if (wrapped instanceof Malformed) return wrapped;
    const message = readBare(wrapped.message, value, ["message"]);
    return message instanceof Malformed ? message : { ...message, direction: wrapped.direction };
  }
  return readBare(value, value, []);
}

function readBare(value: Record<string, unknown>, root: unknown, path: readonly PropertyKey[]): RpcMessage | Malformed {
  if (typeof value.method === "string" && value.id !== undefined) {
    const request = RequestSchema.read(value, root, path);
    if (request instanceof Malformed) return request;
    return { kind: "request", id: request.id, method: request.method, params: request.params, direction: undefined };
  }
  if (typeof value.method === "string") {
    const notification = NotificationSchema.read(value, root, path);
    if (notification instanceof Malformed) return notification;
    return { kind: "notification", method: notification.method, params: notification.params, direction: undefined };
  }
  if (!("result" in value) && !isRecord(value.error)) {
    return new Malformed(`${path.length > 0 ? "message: " : ""}neither a request (method), nor a response (result or error)`);
  }
  const response = ResponseSchema.read(value, root, path);
  if (response instanceof Malformed) return response;
  return { kind: "response", id: response.id, result: response.result, error: response.error, direction: undefined };
}
