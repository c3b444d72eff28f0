/**
 * Host context from the VS Code theme: the spec's standard CSS variables (`--color-*`,
 * `--font-*`, `--border-radius-*`, `--shadow-*`) mapped from VS Code's own theme variables
 * (`--vscode-*`, which only exist inside a webview), and the theme kind from the body class
 * VS Code sets on every webview. Pure: the webview passes a reader of its computed style.
 */

export type AppTheme = 'light' | 'dark';

/** One spec variable: the VS Code variables to try in order, then a literal fallback. */
interface StyleSource {
  vscode?: string[];
  value?: string;
}

const v = (...names: string[]): StyleSource => ({ vscode: names });
const lit = (value: string): StyleSource => ({ value });

/** Every spec variable and where its value comes from. */
export const HOST_STYLE_SOURCES: Record<string, StyleSource> = {
  '--color-background-primary': v('editor-background'),
  '--color-background-secondary': v('sideBar-background', 'editorWidget-background', 'editor-background'),
  '--color-background-tertiary': v('editorWidget-background', 'editor-background'),
  '--color-background-inverse': v('editor-foreground', 'foreground'),
  '--color-background-ghost': lit('transparent'),
  '--color-background-info': v('inputValidation-infoBackground'),
  '--color-background-danger': v('inputValidation-errorBackground'),
  '--color-background-success': v('diffEditor-insertedLineBackground', 'diffEditor-insertedTextBackground'),
  '--color-background-warning': v('inputValidation-warningBackground'),
  '--color-background-disabled': v('input-background', 'editorWidget-background'),
  '--color-text-primary': v('foreground', 'editor-foreground'),
  '--color-text-secondary': v('descriptionForeground', 'foreground'),
  '--color-text-tertiary': v('disabledForeground', 'descriptionForeground'),
  '--color-text-inverse': v('editor-background'),
  '--color-text-ghost': v('disabledForeground', 'descriptionForeground'),
  '--color-text-info': v('editorInfo-foreground', 'textLink-foreground'),
  '--color-text-danger': v('errorForeground', 'editorError-foreground'),
  '--color-text-success': v('testing-iconPassed', 'terminal-ansiGreen'),
  '--color-text-warning': v('editorWarning-foreground', 'terminal-ansiYellow'),
  '--color-text-disabled': v('disabledForeground', 'descriptionForeground'),
  '--color-border-primary': v('panel-border', 'widget-border', 'contrastBorder'),
  '--color-border-secondary': v('editorGroup-border', 'panel-border'),
  '--color-border-tertiary': v('input-border', 'widget-border', 'panel-border'),
  '--color-border-inverse': v('foreground'),
  '--color-border-ghost': lit('transparent'),
  '--color-border-info': v('inputValidation-infoBorder', 'focusBorder'),
  '--color-border-danger': v('inputValidation-errorBorder', 'errorForeground'),
  '--color-border-success': v('testing-iconPassed', 'terminal-ansiGreen'),
  '--color-border-warning': v('inputValidation-warningBorder', 'editorWarning-foreground'),
  '--color-border-disabled': v('disabledForeground'),
  '--color-ring-primary': v('focusBorder'),
  '--color-ring-secondary': v('focusBorder'),
  '--color-ring-inverse': v('editor-background'),
  '--color-ring-info': v('inputValidation-infoBorder', 'focusBorder'),
  '--color-ring-danger': v('inputValidation-errorBorder', 'errorForeground'),
  '--color-ring-success': v('testing-iconPassed', 'focusBorder'),
  '--color-ring-warning': v('inputValidation-warningBorder', 'focusBorder'),
  '--font-sans': v('font-family'),
  '--font-mono': v('editor-font-family'),
  '--font-weight-normal': v('font-weight'),
  '--font-weight-medium': lit('500'),
  '--font-weight-semibold': lit('600'),
  '--font-weight-bold': lit('700'),
  '--font-text-xs-size': lit('11px'),
  '--font-text-sm-size': lit('12px'),
  '--font-text-md-size': v('font-size'),
  '--font-text-lg-size': lit('14px'),
  '--font-heading-xs-size': lit('13px'),
  '--font-heading-sm-size': lit('14px'),
  '--font-heading-md-size': lit('16px'),
  '--font-heading-lg-size': lit('20px'),
  '--font-heading-xl-size': lit('24px'),
  '--font-heading-2xl-size': lit('28px'),
  '--font-heading-3xl-size': lit('32px'),
  '--font-text-xs-line-height': lit('16px'),
  '--font-text-sm-line-height': lit('18px'),
  '--font-text-md-line-height': lit('20px'),
  '--font-text-lg-line-height': lit('22px'),
  '--font-heading-xs-line-height': lit('18px'),
  '--font-heading-sm-line-height': lit('20px'),
  '--font-heading-md-line-height': lit('22px'),
  '--font-heading-lg-line-height': lit('28px'),
  '--font-heading-xl-line-height': lit('32px'),
  '--font-heading-2xl-line-height': lit('36px'),
  '--font-heading-3xl-line-height': lit('40px'),
  '--border-radius-xs': lit('2px'),
  '--border-radius-sm': lit('2px'),
  '--border-radius-md': lit('4px'),
  '--border-radius-lg': lit('6px'),
  '--border-radius-xl': lit('8px'),
  '--border-radius-full': lit('9999px'),
  '--border-width-regular': lit('1px'),
  '--shadow-hairline': lit('0 0 0 1px var(--color-border-primary, transparent)'),
  '--shadow-sm': v('widget-shadow'),
  '--shadow-md': v('widget-shadow'),
  '--shadow-lg': v('widget-shadow'),
};

const SHADOWS: Record<string, string> = { '--shadow-sm': '0 1px 2px', '--shadow-md': '0 2px 8px', '--shadow-lg': '0 4px 16px' };

/**
 * The spec variables' values, read from the webview's computed style with `read('--vscode-x')`.
 * A variable whose VS Code sources are all empty is left out (apps use their own default).
 */
export function hostStyleVariables(read: (cssVariable: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, source] of Object.entries(HOST_STYLE_SOURCES)) {
    let value = source.value;
    for (const candidate of source.vscode ?? []) {
      const found = read(`--vscode-${candidate}`).trim();
      if (found) {
        value = found;
        break;
      }
    }
    if (value === undefined) continue;
    out[name] = SHADOWS[name] && source.vscode ? `${SHADOWS[name]} ${value}` : value;
  }
  return out;
}

/** VS Code's webview body classes → the spec's theme kind (high contrast follows its base). */
export function themeFromBodyClass(classList: Iterable<string>): AppTheme {
  const classes = new Set(classList);
  return classes.has('vscode-light') || classes.has('vscode-high-contrast-light') ? 'light' : 'dark';
}

const STYLE_VALUE = /^[^<>{};\\]{1,300}$/;

/**
 * The styles a webview reported, kept only where the name is a spec variable and the value
 * is a plain CSS value (the app puts them into custom properties; nothing may close a rule).
 */
export function sanitizeHostStyles(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof raw !== 'object' || raw === null) return out;
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (name in HOST_STYLE_SOURCES && typeof value === 'string' && STYLE_VALUE.test(value)) out[name] = value;
  }
  return out;
}
