// What the integration suites share inside the extension host: the repository (for the fake CLIs), the extension's
// test API, and its settings.
import * as assert from "node:assert/strict";
import * as path from "node:path";
import * as vscode from "vscode";
import type { AgentStreamTestApi } from "../../src/extension";

const EXTENSION_ID = "agent-stream.agent-stream";

export function repo(): string {
  const root = process.env["AGENT_STREAM_REPO"];
  assert.ok(root, "the runner passes AGENT_STREAM_REPO (the extension host's PATH and cwd are not ours)");
  return root;
}

export const fakeCli = (name: string) => path.join(repo(), "test", "fake-clis", name);

export async function testApi(): Promise<AgentStreamTestApi> {
  const extension = vscode.extensions.getExtension<AgentStreamTestApi | undefined>(EXTENSION_ID);
  assert.ok(extension);
  const api = await extension.activate();
  assert.ok(api, "the runner sets AGENT_STREAM_TEST_API=1 for the extension host");
  return api;
}

export const config = () => vscode.workspace.getConfiguration("agentStream");
