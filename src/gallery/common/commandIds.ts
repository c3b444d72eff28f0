/** The ids of the registry gallery's commands (pure, no imports: see src/servers/common/commandIds.ts). */
export const GalleryCommands = {
  browse: 'mcpWorkbench.browseServerRegistry',
  installFromLink: 'mcpWorkbench.installServerFromLink',
} as const;
