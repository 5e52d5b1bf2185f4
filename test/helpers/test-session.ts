// The session the tests' conversations and pages belong to, unless a test names another.
import type { SessionHeader } from "../../src/protocol/messages";

export const TEST_SESSION_ID = "00000000-0000-4000-8000-000000000001";
export const TEST_HEADER: SessionHeader = { title: "Test session", agent: "Test agent", otherAgent: null };
