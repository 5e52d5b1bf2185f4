import * as assert from "node:assert/strict";
import type { PermissionOption } from "../../../src/permissions/permission-request";
import { autoAnswerFor, optionOfKind } from "../../../src/permissions/permission-policy";

const options: PermissionOption[] = [
  { id: "always", name: "Always", kind: "allow_always" },
  { id: "cancel", name: "No", kind: "reject_once" },
  { id: "proceed_once", name: "Yes", kind: "allow_once" },
];

describe("the permission policy", () => {
  it("picks options by kind, whatever their ids and order", () => {
    assert.equal(optionOfKind(options, "allow_once")?.id, "proceed_once");
    assert.equal(optionOfKind(options, "reject_always"), undefined);
  });

  it("allows a kind the setting allows, once", () => {
    assert.equal(autoAnswerFor({ read: "allow" }, "read", options)?.id, "proceed_once");
  });

  it("rejects a kind the setting rejects, once", () => {
    assert.equal(autoAnswerFor({ execute: "reject" }, "execute", options)?.id, "cancel");
  });

  it("asks for kinds the setting does not name, and by default for every kind", () => {
    assert.equal(autoAnswerFor({ read: "allow" }, "edit", options), undefined);
    assert.equal(autoAnswerFor({}, "read", options), undefined);
  });

  it("never answers always on its own: without a once option it asks", () => {
    const alwaysOnly: PermissionOption[] = [{ id: "a", name: "Always", kind: "allow_always" }, { id: "r", name: "Never", kind: "reject_always" }];
    assert.equal(autoAnswerFor({ read: "allow" }, "read", alwaysOnly), undefined);
    assert.equal(autoAnswerFor({ read: "reject" }, "read", alwaysOnly), undefined);
  });
});
