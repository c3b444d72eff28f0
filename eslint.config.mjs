// @ts-check
// Lint: typescript-eslint's `recommended` (syntax only: the type-checked presets would need a full
// program per tsconfig and take minutes on 2 cores; `npm run typecheck` already runs tsc), plus the
// layer rules of docs/architecture.md written as import restrictions. Line length and layout are
// Prettier's (.prettierrc.json), so no stylistic rule is on here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// ---- Layers -------------------------------------------------------------------------------
// Folders under src/ that any feature's glue may import whole (not only their common/): the
// protocol core and the shared helpers. Edit this list (and PURE below) when folders move.
const OPEN_TO_ALL = ['mcp', 'shared'];
// Folders that, like every common/, must never import `vscode` (the architecture test also
// checks that they do not reach it through an import).
const PURE = ['src/**/common/**/*.ts', 'src/mcp/**/*.ts', 'src/configLanguage/server/**/*.ts'];

const noVscode = {
  name: 'vscode',
  message:
    'Pure layers (common/, src/mcp, src/configLanguage/server) must not import vscode: move the VS Code part to the feature glue (docs/architecture.md).',
};

/**
 * The crossing rule for files `depth` folders below src/ (src/a/x.ts is depth 1): a relative import
 * that climbs back to src/ (exactly `depth` times `../`) and enters another feature must go through
 * that feature's common/, unless the feature is one of OPEN_TO_ALL.
 */
function crossFeature(depth) {
  const up = '\\.\\./'.repeat(depth);
  return {
    files: [`src/${'*/'.repeat(depth)}*.ts`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'warn',
        {
          patterns: [
            {
              regex: `^${up}(?!(?:${OPEN_TO_ALL.join('|')})/)[^/.]+/(?!common/)`,
              message: "Another feature's glue: import its common/ instead, or move what you need there (docs/architecture.md, Direction of imports).",
            },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-results/**', '.vscode-test/**', 'bench/**', 'demo/**'] },
  {
    files: ['src/**/*.ts', 'webview/**/*.ts', 'test/**/*.{ts,js,mjs,cjs}', 'scripts/**/*.mjs', 'esbuild.mjs', 'eslint.config.mjs'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `const { secret: _dropped, ...rest } = x` is how the code drops a field: the rest is used.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, argsIgnorePattern: '^_' }],
      // The code strips C0 controls and ANSI escapes from untrusted and terminal text on purpose;
      // a regex with \x00-\x1f in it is the point there, not a typo.
      'no-control-regex': 'off',
    },
  },
  {
    // One way to read a caught value's message: errorMessage() of src/shared/common/errors.ts.
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    ignores: ['src/shared/common/errors.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ConditionalExpression[test.operator='instanceof'][test.right.name='Error'][consequent.property.name='message']",
          message: 'Use errorMessage() from src/shared/common/errors.ts for the message of a caught value.',
        },
        {
          // Issue 29: "24-hour times everywhere". A locale's time string is "02:05:09 PM" in en-US.
          selector: "CallExpression[callee.property.name='toLocaleTimeString']",
          message: 'Use timeOfDay() from src/shared/common/durations.ts: every view shows the same 24-hour clock.',
        },
      ],
    },
  },
  {
    // CommonJS fixtures (run by plain node or loaded as a test extension), and integration tests
    // that load fixture servers by a path known only at run time (MCPWB_FIXTURES), outside the bundle.
    files: ['**/*.js', '**/*.cjs', 'test/integration/**/*.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },

  // ---- Layer rules (errors: today's code keeps them) ----------------------------------------
  {
    files: PURE,
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode] }] },
  },
  {
    files: ['webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'Webviews run in the browser: talk to the extension through the panel messages.' }],
          patterns: [
            {
              regex: '^(?:\\.\\./)+src/(?![^/]+/common/)',
              message: 'Webviews import only the common/ message types and pure helpers of src/ (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  // ---- Feature crossing (warnings, none left since the config service (issue 27); package.json lint --max-warnings 0 fails on one) ----
  crossFeature(1),
  crossFeature(2),
  crossFeature(3),
);
