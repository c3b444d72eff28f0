/** The ids of the Inspector's commands (pure, no imports: see src/servers/common/commandIds.ts). */
export const InspectorCommands = {
  open: 'mcpWorkbench.openInspector',
  openInPanel: 'mcpWorkbench.openInspectorInPanel',
  openActivityEntry: 'mcpWorkbench.openActivityEntryInInspector',
  importRecording: 'mcpWorkbench.importRecording',
  exportRecording: 'mcpWorkbench.exportRecording',
  exportConsole: 'mcpWorkbench.exportConsole',
  exportHar: 'mcpWorkbench.exportHar',
  view: '_mcpWorkbench.inspectorView',
} as const;

/** Commands above that package.json does not contribute, and why they exist. */
export const InspectorInternal: { readonly [K in keyof typeof InspectorCommands]?: string } = {
  view: "returns the bottom panel view's controller and visibility, for the integration tests",
};
