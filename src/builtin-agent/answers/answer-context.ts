// What an answer is written with: the reported tools, a way to think aloud, and the workspace's name.
import type { ReportedTools } from "../reported-tools";

export interface AnswerContext {
  tools: ReportedTools;
  think(text: string): Promise<void>;
  /** The workspace folder's name, for headings. */
  workspaceName: string;
}
