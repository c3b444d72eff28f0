/** The ids of the resource commands (pure, no imports: see src/servers/common/commandIds.ts). */
export const ResourceCommands = {
  open: 'mcpWorkbench.openResource',
  openTemplate: 'mcpWorkbench.openResourceTemplate',
  copy: 'mcpWorkbench.copyResource',
  copyUri: 'mcpWorkbench.copyResourceUri',
  subscribed: '_mcpWorkbench.resourceSubscribed',
} as const;

/** Commands above that package.json does not contribute, and why they exist. */
export const ResourceInternal: { readonly [K in keyof typeof ResourceCommands]?: string } = {
  subscribed: 'tells whether a resource is subscribed to, for the integration tests',
};
