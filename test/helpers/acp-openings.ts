// How real ACP agents opened their sessions: the answer to `session/new` in a recorded log of their traffic
// (test/fixtures/acp-recorded/<agent>/<version>/plain-answer.ndjson), for the tests of what the client makes of it.
import * as fs from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./repo";

/** The agents and versions whose traffic is recorded: `<profile>/<version>`. */
export const RECORDED_OPENINGS = [
  "qwen/0.15.10",
  "qwen/0.24.4",
  "gemini/0.61.0",
  "opencode/1.18.33",
  "codex/0.16.0",
  "codex/2.6.0",
  "claude-acp/0.23.1",
  "claude-acp/0.101.0",
] as const;
export type RecordedOpening = (typeof RECORDED_OPENINGS)[number];

/** The agent's answer to the client's `session/new`, as it came. */
export function recordedOpening(agent: RecordedOpening): Record<string, unknown> {
  const file = path.join(repoRoot, "test", "fixtures", "acp-recorded", agent, "plain-answer.ndjson");
  const messages = fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { id?: unknown; method?: string; result?: Record<string, unknown> });
  const asked = messages.find((message) => message.method === "session/new");
  const answer = messages.find((message) => message.method === undefined && message.id === asked?.id && message.result !== undefined);
  if (answer?.result === undefined) throw new Error(`no answer to session/new in ${file}`);
  return answer.result;
}

/** The modes, config options and models of the opening: what an agent with the same settings sends (fake agents). */
export function openingSettings(agent: RecordedOpening): Record<string, unknown> {
  const { modes, configOptions, models } = recordedOpening(agent);
  return { modes, configOptions, models };
}
