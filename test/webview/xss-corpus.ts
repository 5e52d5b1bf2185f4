// Hostile text an agent (or a file it read, or a web page it fetched) could put in front of the webview. Each
// payload tries to call window.pwn(name) or to navigate; the webview must show it as inert text.

export interface HostilePayload {
  name: string;
  text: string;
}

const p = (name: string, text: string): HostilePayload => ({ name, text });

export const XSS_CORPUS: readonly HostilePayload[] = [
  // Raw HTML: markdown-it has html off, DOMPurify would drop it anyway.
  p("script tag", `<script>pwn('script')</script>`),
  p("img onerror", `<img src=x onerror="pwn('img-onerror')">`),
  p("svg onload", `<svg onload="pwn('svg-onload')"></svg>`),
  p("svg script", `<svg><script>pwn('svg-script')</script></svg>`),
  p("iframe srcdoc", `<iframe srcdoc="<script>parent.pwn('srcdoc')</script>"></iframe>`),
  p("iframe javascript src", `<iframe src="javascript:parent.pwn('iframe-js')"></iframe>`),
  p("raw anchor", `<a href="javascript:pwn('raw-a')">raw anchor</a>`),
  p("onclick anchor", `<a href="#" onclick="pwn('onclick')">click</a>`),
  p("mouseover on a web link", `<a href="https://example.com" onmouseover="pwn('mouseover')">hover</a>`),
  p("details ontoggle", `<details open ontoggle="pwn('ontoggle')"><summary>x</summary></details>`),
  p("input autofocus", `<input autofocus onfocus="pwn('autofocus')">`),
  p("entity-encoded handler", `<img src=x onerror=&#112;&#119;&#110;('entity-attr')>`),
  // CSS tricks.
  p("style attribute url", `<div style="background:url(javascript:pwn('css-url'))">styled</div>`),
  p("style tag", `<style>body{background:url("javascript:pwn('style-tag')")}</style>`),
  p("css expression", `<p style="width: expression(pwn('expression'))">IE expression</p>`),
  // Document-level elements.
  p("base href", `<base href="javascript:pwn('base')//">`),
  p("meta refresh to javascript", `<meta http-equiv="refresh" content="0;url=javascript:pwn('meta')">`),
  p("meta refresh away", `<meta http-equiv="refresh" content="0;url=https://evil.example.com/">`),
  p("link import", `<link rel="import" href="data:text/html,<script>parent.pwn('link')</script>">`),
  p("form action", `<form action="javascript:pwn('form')"><button>go</button></form>`),
  p("object data", `<object data="javascript:pwn('object')"></object>`),
  p("embed src", `<embed src="javascript:pwn('embed')">`),
  p("template", `<template><img src=x onerror="pwn('template')"></template>`),
  // Mutation XSS: markup that parses differently the second time.
  p("noscript mXSS", `<noscript><p title="</noscript><img src=x onerror=pwn('noscript-mxss')>">`),
  p("math mXSS", `<math><mtext><table><mglyph><style><img src=x onerror=pwn('math-mxss')>`),
  p("svg style mXSS", `<svg></p><style><a id="</style><img src=1 onerror=pwn('svg-style-mxss')>">`),
  p("polyglot", `javascript:/*--></title></style></textarea></script></xmp><svg/onload='+/"/+/onmouseover=1/+/[*/[]/+pwn('polyglot')//'>`),
  // Markdown links and autolinks to dangerous schemes.
  p("markdown javascript link", `[click me](javascript:pwn('md-link'))`),
  p("markdown mixed-case scheme", `[click me](JaVaScRiPt:pwn('md-link-case'))`),
  p("markdown link with leading spaces", `[click me](  javascript:pwn('leading-space'))`),
  p("markdown link in angle brackets with a tab entity", `[click me](<java&#9;script:pwn('tab')>)`),
  p("entity-encoded colon", `[click me](javascript&#58;pwn('md-entity-colon'))`),
  p("entity-encoded j", `[click me](&#x6A;avascript:pwn('md-entity-j'))`),
  p("data: html link", `[click me](data:text/html;base64,PHNjcmlwdD5wYXJlbnQucHduKCdkYXRhJyk8L3NjcmlwdD4=)`),
  p("vbscript link", `[click me](vbscript:pwn('vbscript'))`),
  p("vscode: link", `[install](vscode:extension/evil.pwn)`),
  p("command: link", `[run](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22pwn%22%7D)`),
  p("file: link", `[secrets](file:///etc/passwd)`),
  p("javascript autolink", `<javascript:pwn('autolink')>`),
  p("entity javascript autolink", `<&#x6A;avascript:pwn('autolink-entity')>`),
  p("vscode autolink", `<vscode://evil.extension/pwn>`),
  p("command autolink", `<command:workbench.action.openSettings>`),
  p("bare javascript text", `javascript:pwn('linkify')`),
  p("reference-style link", `Read [the docs][docs].\n\n[docs]: javascript:pwn('ref-link')`),
  p("reference-style command link", `[open][c]\n\n[c]: command:workbench.action.reloadWindow "reload"`),
  p("link title breaking out", `[x](https://example.com "title\\" onmouseover=\\"pwn('title-break')")`),
  // Images.
  p("markdown image onerror", `![x](x" onerror="pwn('img-attr-break'))`),
  p("markdown javascript image", `![pwn](javascript:pwn('img-js'))`),
  p("markdown remote image", `![tracking pixel](https://evil.example.com/pixel.png)`),
  // Unicode tricks.
  p("fullwidth scheme", `[click me](ｊａｖａｓｃｒｉｐｔ:pwn('fullwidth'))`),
  p("zero-width in scheme", `[click me](java\u200Bscript:pwn('zero-width'))`),
  p("RTL override", `[\u202E)'ltr'(nwp:tpircsavaj](javascript:pwn('rtl'))`),
  p("RTL override before scheme", `[click me](\u202Ejavascript:pwn('rtl-scheme'))`),
  // Payloads inside code stay code.
  p("code span", "`<img src=x onerror=pwn('code-span')>`"),
  p("fenced html", "```html\n<script>pwn('fence')</script>\n<img src=x onerror=pwn('fence-img')>\n```"),
];
