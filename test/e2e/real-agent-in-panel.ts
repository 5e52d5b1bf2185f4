// A real agent CLI run by the extension in a real VS Code: installed from npm into the agent CLI cache, its home set up
// against a mock model server on 127.0.0.1, its environment marked so a test can find every process it left, and the
// workbench started with the settings that point the extension at it. Shared by the stream CLIs' suite and the ACP
// agents' suite, which differ only in what they set up and which settings they add.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { MockModelServer } from "../../scripts/recording/mock-model-server";
import type { RunPlaces } from "../../scripts/recording/scenario";
import { markedCliEnvironment, RUN_MARKER_VARIABLE } from "./processes";
import { useWorkbench, type Workbench } from "./workbench";

export interface RealAgentSetup {
  /** Names the agent's throwaway home folder. */
  name: string;
  /** Installs the agent (the first time, from npm) and returns its executable. */
  install(): string;
  /** Writes the agent's settings into its home; the workspace is not made yet (useWorkbench makes it later). */
  prepareHome(places: RunPlaces): void;
  /** The agent's environment for these places, before the run marker is added. */
  env(places: RunPlaces): Readonly<Record<string, string>>;
  /** The agent's settings beyond its executable and environment (`agentStream.cli.args`, a profile, editor settings). */
  settings: Record<string, unknown>;
}

export interface RealAgentInPanel {
  readonly workbench: Workbench;
  /** `RUN_MARKER_VARIABLE=<marker>`: in the environment of every process the agent's runs start. */
  readonly markerEntry: string;
  /** The mock model server, once the suite's `before` has run. */
  readonly mock: MockModelServer;
}

/** Call inside a `describe`: sets the agent up before the suite, and takes it all down after. */
export function useRealAgentInPanel(setup: RealAgentSetup): RealAgentInPanel {
  const marker = randomBytes(8).toString("hex");
  let mock: MockModelServer | undefined;
  let home: string | undefined;
  let settings: Record<string, unknown> = {};

  before(async function () {
    this.timeout(600_000); // a first install from npm
    const executable = setup.install();
    mock = await MockModelServer.start();
    home = fs.mkdtempSync(path.join(os.tmpdir(), `agent-stream-e2e-${setup.name}-home-`));
    const places: RunPlaces = { home, workspace: "", port: mock.port };
    setup.prepareHome(places);
    settings = {
      ...setup.settings,
      "agentStream.cli.path": executable,
      "agentStream.cli.env": markedCliEnvironment(setup.env(places), marker),
    };
  });
  const workbench = useWorkbench(() => settings);
  after(async () => {
    await mock?.stop();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  return {
    workbench,
    markerEntry: `${RUN_MARKER_VARIABLE}=${marker}`,
    get mock(): MockModelServer {
      if (mock === undefined) throw new Error("the mock model server starts in the suite's before hook");
      return mock;
    },
  };
}
