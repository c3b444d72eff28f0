/** The ids of the sign-in commands (pure, no imports: see src/servers/common/commandIds.ts). */
export const AuthCommands = {
  signIn: 'mcpWorkbench.signIn',
  signOut: 'mcpWorkbench.signOut',
  testingBrowser: '_mcpWorkbench.testing.oauthBrowser',
} as const;

/** Commands above that package.json does not contribute, and why they exist. */
export const AuthInternal: { readonly [K in keyof typeof AuthCommands]?: string } = {
  testingBrowser: 'lets the integration tests replace the browser the OAuth flow opens',
};
