/**
 * Arguments of the commands that act on one server item. Tree nodes carry these fields,
 * so a command gets the same shape from the tree, a code lens, a keybinding or a test.
 */
export interface ServerRef {
  serverId: string;
}

export interface ToolRef extends ServerRef {
  toolName: string;
  /** For `mcpWorkbench.runTool`: the arguments the form starts with (the Inspector's Open in Run Tool). */
  arguments?: Record<string, unknown>;
}

export interface ResourceRef extends ServerRef {
  uri: string;
}

export interface TemplateRef extends ServerRef {
  uriTemplate: string;
}

export interface PromptRef extends ServerRef {
  promptName: string;
}
