#!/usr/bin/env node
// An ACP agent with session modes, built with the SDK's agent side, for the tests of how a session's mode is chosen.
// Each prompt asks it to write `written.txt` in its folder: in a mode that approves by itself it writes at once, in any
// other mode it asks first and writes only when allowed, as the real agents do (docs/acp-agents.md, "Session modes").
//
// Environment:
//   FAKE_ACP_OPENING        JSON: the `modes`, `configOptions` and `models` of its session/new answer (a recorded
//                           agent's); session/load and session/resume answer them again as they were, as Qwen Code 0.24
//                           and codex-acp 2.6 do: a continued session is back in the agent's default mode.
//   FAKE_ACP_SELF_APPROVING comma-separated modes in which it writes without asking (default: auto,yolo,agent).
//   FAKE_ACP_SWITCH         works (default) | refused (the set_* request fails) | ignored (answers, stays as it was) |
//                           unsaid (answers set_config_option without the options' values, as set_mode answers).
//   FAKE_ACP_TURN_MODE      a mode it switches itself to at the start of each turn (a current_mode_update).
//   FAKE_ACP_RECORD         a file where it appends what it was told, one JSON line per fact.
import * as acp from "@agentclientprotocol/sdk";
import * as fs from "node:fs";
import * as path from "node:path";
import { Readable, Writable } from "node:stream";

const opening = JSON.parse(process.env.FAKE_ACP_OPENING ?? "{}");
const selfApproving = new Set((process.env.FAKE_ACP_SELF_APPROVING ?? "auto,yolo,agent").split(","));
const switching = process.env.FAKE_ACP_SWITCH ?? "works";
const recordFile = process.env.FAKE_ACP_RECORD;
const record = (fact) => recordFile && fs.appendFileSync(recordFile, JSON.stringify(fact) + "\n");

/** Per session: its folder and the values of its settings (`mode`, `model`, …), as the opening gave them. */
const sessions = new Map();
let sessionCounter = 0;

function initialValues() {
  const values = { mode: opening.modes?.currentModeId };
  for (const option of opening.configOptions ?? []) values[option.id] = option.currentValue;
  if (opening.models) values.model ??= opening.models.currentModelId;
  return values;
}

/** The answer to session/new, load and resume: the opening with the session's values now. */
function settingsOf(session) {
  const modeOption = (opening.configOptions ?? []).find((option) => option.category === "mode");
  const answer = {};
  if (opening.modes) answer.modes = { ...opening.modes, currentModeId: session.values[modeOption?.id ?? "mode"] ?? session.values.mode };
  if (opening.configOptions) answer.configOptions = opening.configOptions.map((option) => ({ ...option, currentValue: session.values[option.id] }));
  if (opening.models) answer.models = opening.models;
  return answer;
}

function open(sessionId, cwd) {
  const session = { cwd, values: initialValues() };
  sessions.set(sessionId, session);
  return session;
}

function modeOf(session) {
  const modeOption = (opening.configOptions ?? []).find((option) => option.category === "mode");
  return session.values[modeOption?.id ?? "mode"] ?? session.values.mode;
}

function set(session, key, value, known, method) {
  record({ set: key, value, method });
  if (switching === "refused" || !known) throw new acp.RequestError(-32602, `Invalid params: unknown ${key} ${value}`);
  if (switching === "ignored") return;
  session.values[key] = value;
  const modeOption = (opening.configOptions ?? []).find((option) => option.category === "mode");
  if (key === "mode" && modeOption !== undefined) session.values[modeOption.id] = value;
  if (key === modeOption?.id) session.values.mode = value;
}

async function update(client, sessionId, value) {
  await client.notify(acp.methods.client.session.update, { sessionId, update: value });
}

const app = acp
  .agent({ name: "fake-acp-modes-agent" })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: true, sessionCapabilities: { resume: {} } },
    authMethods: [],
    agentInfo: { name: "fake-acp-modes-agent", version: "1.0.0" },
  }))
  .onRequest(acp.methods.agent.session.new, ({ params }) => {
    const sessionId = `session-${process.pid}-${++sessionCounter}`;
    const session = open(sessionId, params.cwd);
    record({ newSession: sessionId });
    return { sessionId, ...settingsOf(session) };
  })
  .onRequest(acp.methods.agent.session.resume, ({ params }) => {
    record({ resumeSession: params.sessionId });
    return settingsOf(open(params.sessionId, params.cwd));
  })
  .onRequest(acp.methods.agent.session.load, ({ params }) => {
    record({ loadSession: params.sessionId });
    return settingsOf(open(params.sessionId, params.cwd));
  })
  .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
    const session = sessions.get(params.sessionId);
    set(session, "mode", params.modeId, (opening.modes?.availableModes ?? []).some((mode) => mode.id === params.modeId), "session/set_mode");
    return {};
  })
  .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
    const session = sessions.get(params.sessionId);
    const option = (opening.configOptions ?? []).find((known) => known.id === params.configId);
    const values = (option?.options ?? []).flatMap((entry) => entry.options ?? [entry]);
    // A boolean option takes only a boolean sent as one (`type: "boolean"`), as the SDK's schema says.
    const known = option?.type === "boolean" ? params.type === "boolean" && typeof params.value === "boolean" : values.some((entry) => entry.value === params.value);
    set(session, params.configId, params.value, known, "session/set_config_option");
    return switching === "unsaid" ? {} : { configOptions: settingsOf(session).configOptions };
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const session = sessions.get(params.sessionId);
    if (process.env.FAKE_ACP_TURN_MODE) {
      set(session, "mode", process.env.FAKE_ACP_TURN_MODE, true, "its own");
      await update(client, params.sessionId, { sessionUpdate: "current_mode_update", currentModeId: process.env.FAKE_ACP_TURN_MODE });
    }
    const mode = modeOf(session);
    record({ prompt: params.prompt, mode, model: session.values.model });
    const file = path.join(session.cwd, "written.txt");
    const toolCall = { toolCallId: "w1", title: "Write written.txt", kind: "edit", status: "pending", locations: [{ path: file }] };
    let allowed = selfApproving.has(mode);
    if (!allowed) {
      const response = await client.request(acp.methods.client.session.requestPermission, {
        sessionId: params.sessionId,
        toolCall,
        options: [
          { optionId: "allow", name: "Allow", kind: "allow_once" },
          { optionId: "reject", name: "Reject", kind: "reject_once" },
        ],
      });
      allowed = response.outcome.outcome === "selected" && response.outcome.optionId === "allow";
    }
    if (allowed) fs.writeFileSync(file, "written\n");
    await update(client, params.sessionId, { sessionUpdate: "tool_call", ...toolCall, status: allowed ? "completed" : "failed" });
    return { stopReason: "end_turn" };
  });

const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
connection.closed.then(() => process.exit(0));
