// The --vscode-* variables VS Code gives a webview, with the default Dark+, Light+ and High Contrast values, so the
// harness page looks as it would in the editor's side bar. Only what the chat's stylesheet reads is listed.

export const THEMES = ["dark", "light", "high-contrast"] as const;
export type Theme = (typeof THEMES)[number];

const COMMON: Record<string, string> = {
  "font-family": `-apple-system, BlinkMacSystemFont, "Segoe WPC", "Segoe UI", "Ubuntu", "Droid Sans", sans-serif`,
  "font-size": "13px",
  "font-weight": "normal",
  "editor-font-family": `"Droid Sans Mono", "monospace", monospace`,
  "editor-font-size": "14px",
};

/** sideBar.background: what a side bar webview sits on (VS Code paints it behind the page). */
const PAGE_BACKGROUND: Record<Theme, string> = { dark: "#252526", light: "#f3f3f3", "high-contrast": "#000000" };

/** VS Code's class on <body> for each kind of theme. */
export const BODY_CLASS: Record<Theme, string> = { dark: "vscode-dark", light: "vscode-light", "high-contrast": "vscode-high-contrast" };

const VARIABLES: Record<Theme, Record<string, string>> = {
  dark: {
    foreground: "#cccccc",
    descriptionForeground: "#ccccccb3",
    errorForeground: "#f48771",
    focusBorder: "#007fd4",
    "icon-foreground": "#c5c5c5",
    "editor-foreground": "#d4d4d4",
    "editorWidget-background": "#252526",
    "editorWidget-foreground": "#cccccc",
    "widget-border": "#454545",
    "panel-border": "#80808059",
    "textLink-foreground": "#3794ff",
    "textLink-activeForeground": "#3794ff",
    "textCodeBlock-background": "#0a0a0a66",
    "textPreformat-foreground": "#d7ba7d",
    "textBlockQuote-background": "#7f7f7f1a",
    "textBlockQuote-border": "#007acc80",
    "input-background": "#3c3c3c",
    "input-foreground": "#cccccc",
    "input-placeholderForeground": "#a6a6a6",
    "dropdown-background": "#3c3c3c",
    "dropdown-foreground": "#f0f0f0",
    "dropdown-border": "#3c3c3c",
    "inputValidation-errorBackground": "#5a1d1d",
    "inputValidation-errorBorder": "#be1100",
    "inputValidation-warningBackground": "#352a05",
    "inputValidation-warningBorder": "#b89500",
    "editorWarning-foreground": "#cca700",
    "testing-iconPassed": "#73c991",
    "button-background": "#0e639c",
    "button-foreground": "#ffffff",
    "button-hoverBackground": "#1177bb",
    "button-secondaryBackground": "#3a3d41",
    "button-secondaryForeground": "#ffffff",
    "button-secondaryHoverBackground": "#45494e",
    "toolbar-hoverBackground": "#5a5d5e50",
  },
  light: {
    foreground: "#616161",
    descriptionForeground: "#717171",
    errorForeground: "#a1260d",
    focusBorder: "#0090f1",
    "icon-foreground": "#424242",
    "editor-foreground": "#000000",
    "editorWidget-background": "#f3f3f3",
    "editorWidget-foreground": "#616161",
    "widget-border": "#d4d4d4",
    "panel-border": "#80808059",
    "textLink-foreground": "#006ab1",
    "textLink-activeForeground": "#006ab1",
    "textCodeBlock-background": "#dcdcdc66",
    "textPreformat-foreground": "#a31515",
    "textBlockQuote-background": "#7f7f7f1a",
    "textBlockQuote-border": "#0064c880",
    "input-background": "#ffffff",
    "input-foreground": "#616161",
    "input-border": "#cecece",
    "input-placeholderForeground": "#767676",
    "dropdown-background": "#ffffff",
    "dropdown-foreground": "#616161",
    "dropdown-border": "#cecece",
    "inputValidation-errorBackground": "#f2dede",
    "inputValidation-errorBorder": "#be1100",
    "inputValidation-warningBackground": "#f6f5d2",
    "inputValidation-warningBorder": "#b89500",
    "editorWarning-foreground": "#bf8803",
    "testing-iconPassed": "#388a34",
    "button-background": "#007acc",
    "button-foreground": "#ffffff",
    "button-hoverBackground": "#0062a3",
    "button-secondaryBackground": "#5f6a79",
    "button-secondaryForeground": "#ffffff",
    "button-secondaryHoverBackground": "#4c5561",
    "toolbar-hoverBackground": "#b8b8b850",
  },
  "high-contrast": {
    foreground: "#ffffff",
    descriptionForeground: "#ffffffb3",
    errorForeground: "#f48771",
    focusBorder: "#f38518",
    contrastBorder: "#6fc3df",
    contrastActiveBorder: "#f38518",
    "icon-foreground": "#ffffff",
    "editor-foreground": "#ffffff",
    "editorWidget-background": "#0c141f",
    "editorWidget-foreground": "#ffffff",
    "widget-border": "#6fc3df",
    "panel-border": "#6fc3df",
    "textLink-foreground": "#21a6ff",
    "textLink-activeForeground": "#21a6ff",
    "textCodeBlock-background": "#000000",
    "textPreformat-foreground": "#ffffff",
    "textBlockQuote-background": "#000000",
    "textBlockQuote-border": "#ffffff",
    "input-background": "#000000",
    "input-foreground": "#ffffff",
    "input-border": "#6fc3df",
    "input-placeholderForeground": "#ffffffb3",
    "dropdown-background": "#000000",
    "dropdown-foreground": "#ffffff",
    "dropdown-border": "#6fc3df",
    "inputValidation-errorBackground": "#000000",
    "inputValidation-errorBorder": "#6fc3df",
    "inputValidation-warningBackground": "#000000",
    "inputValidation-warningBorder": "#6fc3df",
    "editorWarning-foreground": "#ffd370",
    "testing-iconPassed": "#73c991",
    "button-background": "#000000",
    "button-foreground": "#ffffff",
    "button-border": "#6fc3df",
    "button-secondaryBackground": "#000000",
    "button-secondaryForeground": "#ffffff",
    "toolbar-hoverBackground": "#000000",
  },
};

/** One stylesheet for all themes; the harness picks one with `<html data-test-theme="…">`. */
export function themeStylesheet(): string {
  return THEMES.map((theme) => {
    const variables = { ...COMMON, ...VARIABLES[theme] };
    const declarations = Object.entries(variables).map(([name, value]) => `  --vscode-${name}: ${value};`);
    return `html[data-test-theme="${theme}"] {\n${declarations.join("\n")}\n  background: ${PAGE_BACKGROUND[theme]};\n}`;
  }).join("\n\n");
}
