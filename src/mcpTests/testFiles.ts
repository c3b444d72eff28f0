/** Which files are saved MCP tests: the Testing view's controller and what makes it (registerMcpTests.ts) agree. */
import * as vscode from 'vscode';

export const TEST_FILE_GLOB = '**/*.mcptest.json';
export const TEST_FILE_EXCLUDE = '**/{node_modules,.git,out,dist,.vscode-test}/**';

/** A saved test file of the workspace (one outside every folder is not the Testing view's). */
export const isTestFile = (uri: vscode.Uri): boolean => uri.path.endsWith('.mcptest.json') && !!vscode.workspace.getWorkspaceFolder(uri);
