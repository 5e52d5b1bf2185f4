import * as assert from "node:assert/strict";
import { renderWebviewPage } from "../../../src/panel/webview-html";

const PAGE = { cspSource: "https://file+.vscode-resource.vscode-cdn.net", scriptUri: "https://x/dist/webview.js", styleUris: ["https://x/dist/webview.css"] };

/** The policy VS Code finds in a page: the first `<meta http-equiv="Content-Security-Policy">`, as its webview's check looks for it. */
function policyOf(html: string): string | undefined {
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  return meta?.[1];
}

describe("the chat webview's page", () => {
  for (const placement of ["sidebar", "editor"] as const) {
    it(`carries a strict Content Security Policy in its head in the ${placement}`, () => {
      const html = renderWebviewPage({ ...PAGE, placement, nonce: "n0nce" });
      const head = html.slice(0, html.indexOf("</head>"));
      const policy = policyOf(head);
      assert.ok(policy, "the head has a CSP meta tag");
      assert.match(policy, /(^|; )default-src 'none'(;|$)/);
      assert.match(policy, /(^|; )script-src 'nonce-n0nce'(;|$)/);
    });
  }

  it("lets only its own script run, by a fresh nonce per page", () => {
    const pages = [renderWebviewPage({ ...PAGE, placement: "sidebar" }), renderWebviewPage({ ...PAGE, placement: "sidebar" })];
    const nonces = pages.map((html) => /script-src 'nonce-([^']+)'/.exec(policyOf(html) ?? "")?.[1]);
    assert.ok(nonces[0] && nonces[1]);
    assert.notEqual(nonces[0], nonces[1]);
    for (const [i, html] of pages.entries()) {
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1]);
      assert.deepEqual(scripts, [` nonce="${nonces[i]}" src="https://x/dist/webview.js"`]);
    }
  });
});
