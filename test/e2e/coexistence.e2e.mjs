// End-to-end, as a user meets it (issue 28, the first open): VS Code's own MCP support is on,
// reads the same .vscode/mcp.json, and a chat model is there (the e2e profile has the
// fake-model fixture extension), so VS Code's agent could run those servers. MCP Workbench asks
// who runs them inside the Servers view (not in a toast); "Leave them to VS Code's chat" lists
// them stopped with the reason and an inline Run Here, which runs one here.
// Screenshots in test-results/e2e/<version>/.
// The e2e profile turns VS Code's host off (runInCodeServer.mjs, builtinMcpSettings), so the
// servers first run here with no question (no agent could use them); a workspace setting then
// turns the host on, with chat.mcp.autostart "never" kept from the profile so VS Code does not
// start servers itself. What runs keeps running until the user answers.
// Run: node test/launch/runInCodeServer.mjs --e2e coexistence --vscode 1.139.1

import * as fs from 'node:fs';
import * as path from 'node:path';

export async function run({ page, step, screenshot, workspace, vscodeVersion }) {
  const servers = page.getByRole('tree', { name: /^Servers\b/ });
  const restMouse = () => page.mouse.move(900, 850);
  const [, minor] = vscodeVersion.split('.').map(Number);
  const hostOn = minor >= 101 ? { 'chat.mcp.access': 'all' } : { 'chat.mcp.enabled': true };
  const choice = servers.getByRole('treeitem', { name: /^Who runs the servers of \.vscode\/mcp\.json\?/ });
  const leave = servers.getByRole('treeitem', { name: /^Leave them to VS Code's chat\b/ });

  await step(
    "with VS Code's MCP support on and a chat model, the Servers view asks who runs the servers of .vscode/mcp.json, with what each answer means",
    async () => {
      await page.getByRole('tab', { name: /^MCP\b/ }).click();
      await servers.waitFor({ state: 'visible' });
      await servers
        .getByRole('treeitem', { name: /^fixture-stdio,/ })
        .filter({ hasText: 'stdio · 2025-11-25' })
        .waitFor({ state: 'visible', timeout: 30_000 });
      // Nothing asks while VS Code's agent cannot use the servers (its host is off in this profile).
      if (await choice.count()) throw new Error("asked although VS Code's MCP support is off");
      // The workspace's folder settings (a multi-root workspace keeps them in its .code-workspace file).
      const file = fs.readdirSync(workspace).find((n) => n.endsWith('.code-workspace'));
      const workspaceFile = path.join(workspace, file);
      const text = fs.readFileSync(workspaceFile, 'utf8');
      if (!text.includes('"settings": {}')) throw new Error(`unexpected ${workspaceFile}: ${text}`);
      fs.writeFileSync(workspaceFile, text.replace('"settings": {}', `"settings": ${JSON.stringify(hostOn)}`));
      await choice.waitFor({ state: 'visible', timeout: 30_000 });
      await servers.getByRole('treeitem', { name: /^Run them here, MCP Workbench starts them and shows their tools\b/ }).waitFor({ state: 'visible' });
      await leave.waitFor({ state: 'visible' });
      // What already ran here keeps running while the question is open.
      await servers
        .getByRole('treeitem', { name: /^fixture-stdio,/ })
        .filter({ hasText: 'stdio · 2025-11-25' })
        .waitFor({ state: 'visible' });
      await restMouse();
      await screenshot('coexistence-01-choice-in-view');
      // "No copies in chat" is offered only while chat.mcp.autostart (1.101+) is not "never", and follows the setting when the user changes it.
      const noCopies = servers.getByRole('treeitem', { name: /^Run them here, no copies in chat\b/ });
      if (await noCopies.count()) throw new Error('offered to set chat.mcp.autostart to "never" although it is "never"');
      if (minor >= 101) {
        const withAutostart = { ...hostOn, 'chat.mcp.autostart': 'newAndOutdated' };
        fs.writeFileSync(workspaceFile, text.replace('"settings": {}', `"settings": ${JSON.stringify(withAutostart)}`));
        await noCopies.waitFor({ state: 'visible', timeout: 30_000 });
        fs.writeFileSync(workspaceFile, text.replace('"settings": {}', `"settings": ${JSON.stringify(hostOn)}`));
        await noCopies.waitFor({ state: 'hidden', timeout: 30_000 });
      }
    },
  );

  await step('"Leave them to VS Code\'s chat": the question goes, the server is listed stopped with the reason and an inline Run Here', async () => {
    await leave.click();
    await choice.waitFor({ state: 'hidden', timeout: 30_000 });
    const item = servers.getByRole('treeitem', { name: /^fixture-stdio,/ });
    await item.filter({ hasText: "run by VS Code's own MCP support" }).waitFor({ state: 'visible', timeout: 30_000 });
    await item.hover();
    await item.getByRole('button', { name: 'Run Here' }).waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot('coexistence-02-run-by-vscode');
  });

  await step('Run Here runs that server here', async () => {
    const item = servers.getByRole('treeitem', { name: /^fixture-stdio,/ });
    await item.getByRole('button', { name: 'Run Here' }).click();
    await item.filter({ hasText: 'stdio · 2025-11-25' }).waitFor({ state: 'visible', timeout: 30_000 });
    await restMouse();
    await screenshot('coexistence-03-run-here');
  });
}
