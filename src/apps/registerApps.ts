/**
 * MCP Apps (SEP-1865): servers' interactive UIs (`ui://` resources) shown in Run Tool's result
 * area or in their own tab, sandboxed, talking to the host over the ui/* protocol.
 */
import * as vscode from 'vscode';
import { AppsService, setAppsService } from './appsService';
import type { Workbench } from '../workbench';

export function registerApps(workbench: Workbench): vscode.Disposable[] {
  const service = new AppsService(workbench);
  setAppsService(service);
  return [service, new vscode.Disposable(() => setAppsService(undefined))];
}
