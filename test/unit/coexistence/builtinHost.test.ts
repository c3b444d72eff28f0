/** Whether VS Code's own MCP host is active, and which servers we leave to it. */
import * as assert from 'node:assert/strict';
import type { ServerSource } from '../../../src/config/common/launchDefinition';
import {
  agentCanUseServers,
  agentHostMayRunCopy,
  builtinHostActive,
  coveredByRunnerChoice,
  hasCopilotAgentHost,
  leftToVsCode,
  RUN_BY_AGENT_HOST_REASON,
  decideRunner,
  heldBackReason,
  waitsForRunnerDecision,
  isSharedSource,
  offeredToAgent,
  parseRunner,
  readsProfileMcpJson,
  RUN_BY_VSCODE_REASON,
  shouldAskRunner,
  shouldOfferAutostartNever,
  type BuiltinHostSettings,
} from '../../../src/coexistence/common/builtinHost';

describe('builtinHostActive', () => {
  // version × settings → active; each row says why.
  const table: [string, BuiltinHostSettings, boolean, string][] = [
    ['1.98.2', {}, false, 'before VS Code had MCP'],
    ['1.99.0', {}, true, 'chat.mcp.enabled defaults to true'],
    ['1.100.3', {}, true, 'the oldest supported version, defaults'],
    ['1.100.3', { enabled: true }, true, 'enabled by hand'],
    ['1.100.3', { enabled: false }, false, 'turned off'],
    ['1.100.3', { access: 'none' }, true, 'access is not read before 1.101'],
    ['1.101.0', {}, true, 'access defaults to all'],
    ['1.101.0', { enabled: false }, true, 'enabled is not read from 1.101 on'],
    ['1.101.0', { access: 'none' }, false, 'access none'],
    ['1.139.1', { access: 'all' }, true, 'access all'],
    ['1.139.1', { access: 'registry' }, true, 'anything but none counts as on (registry-only access not told apart)'],
    ['1.139.1', { access: 'none' }, false, 'access none'],
    ['1.139.1', { access: false }, false, 'a hand-written false'],
    ['1.139.1', { access: 'all', disableAIFeatures: true }, false, 'AI features off'],
    ['1.139.1', { access: 'all', disableAIFeatures: false }, true, 'AI features on'],
    ['1.102.0-insider', { access: 'all' }, true, 'insiders versions'],
    ['2.0.0', {}, true, 'a later major version'],
    ['not a version', { access: 'all' }, false, 'an unreadable version'],
  ];
  for (const [version, settings, expected, why] of table) {
    it(`${version} ${JSON.stringify(settings)} → ${expected} (${why})`, () => {
      assert.equal(builtinHostActive(version, settings), expected);
    });
  }
});

describe('servers of the files both hosts read', () => {
  const vscodeFile: ServerSource = { scope: 'workspace', label: '.vscode/mcp.json', file: '/w/.vscode/mcp.json', folder: 'w' };
  const rootFile: ServerSource = { scope: 'workspace', label: '.mcp.json', file: '/w/.mcp.json', folder: 'w' };
  const setting: ServerSource = { scope: 'user', label: 'Settings (mcpWorkbench.servers)' };
  const cursorProject: ServerSource = {
    scope: 'workspace',
    label: '.cursor/mcp.json',
    file: '/w/.cursor/mcp.json',
    folder: 'w',
    discovered: 'cursor-workspace' as ServerSource['discovered'],
  };
  const claudeDesktop: ServerSource = {
    scope: 'user',
    label: 'Claude Desktop',
    file: '/h/claude.json',
    discovered: 'claude-desktop' as ServerSource['discovered'],
  };

  it('are those of .vscode/mcp.json and .mcp.json only', () => {
    assert.equal(isSharedSource(vscodeFile), true);
    assert.equal(isSharedSource(rootFile), true);
    assert.equal(isSharedSource(setting), false);
    assert.equal(isSharedSource(cursorProject), false);
    assert.equal(isSharedSource(claudeDesktop), false);
  });

  it('are left to VS Code while its host is active and nobody chose otherwise', () => {
    assert.equal(heldBackReason(vscodeFile, undefined, { builtinActive: true }), RUN_BY_VSCODE_REASON);
    assert.equal(heldBackReason(rootFile, 'vscode', { builtinActive: true }), RUN_BY_VSCODE_REASON);
    assert.equal(heldBackReason(vscodeFile, 'workbench', { builtinActive: true }), undefined);
    assert.equal(heldBackReason(vscodeFile, undefined, { builtinActive: false }), undefined, 'VS Code host off: we run them');
    assert.equal(heldBackReason(vscodeFile, 'vscode', { builtinActive: false }), undefined, 'VS Code host off: a stored choice does not stop them');
    assert.equal(heldBackReason(setting, undefined, { builtinActive: true }), undefined, 'servers only we know run as today');
    assert.equal(heldBackReason(cursorProject, 'vscode', { builtinActive: true }), undefined, 'discovery imports run as today');
  });

  it("the user profile's mcp.json is VS Code's own: left to it whatever the workspace chose, ours when its host is off", () => {
    const profile: ServerSource = { scope: 'user', label: 'VS Code user mcp.json', file: '/home/u/.config/Code/User/mcp.json', vscodeProfile: true };
    assert.equal(heldBackReason(profile, undefined, { builtinActive: true }), RUN_BY_VSCODE_REASON);
    assert.equal(heldBackReason(profile, 'workbench', { builtinActive: true }), RUN_BY_VSCODE_REASON, 'the choice is about workspace servers');
    assert.equal(heldBackReason(profile, 'vscode', { builtinActive: false }), undefined, 'VS Code host off: we run them');
    assert.equal(heldBackReason(profile, undefined, { builtinActive: true, readsProfile: false }), undefined, 'a VS Code before 1.102 does not read the file');
    assert.deepEqual(['1.100.3', '1.101.2', '1.102.0', '1.139.1', 'x'].map(readsProfileMcpJson), [false, false, true, true, false]);
  });

  it("VS Code's user-level mcp setting (1.99 – 1.101) is VS Code's own too: left to it where VS Code reads it, ours elsewhere", () => {
    const setting: ServerSource = { scope: 'user', label: 'VS Code user settings', vscodeSetting: true };
    // readsProfile false: a VS Code before 1.102, which reads the setting (and not mcp.json).
    assert.equal(heldBackReason(setting, undefined, { builtinActive: true, readsProfile: false }), RUN_BY_VSCODE_REASON);
    assert.equal(
      heldBackReason(setting, 'workbench', { builtinActive: true, readsProfile: false }),
      RUN_BY_VSCODE_REASON,
      'the choice is about workspace servers',
    );
    assert.equal(
      heldBackReason(setting, undefined, { builtinActive: false, readsProfile: false }),
      undefined,
      'VS Code host off (or before 1.99): we run them',
    );
    assert.equal(heldBackReason(setting, undefined, { builtinActive: true, readsProfile: true }), undefined, '1.102+ no longer reads the setting');
  });

  it('a server the user chose to Run Here is not held back, whatever the workspace choice', () => {
    assert.equal(heldBackReason(vscodeFile, 'vscode', { builtinActive: true, readsProfile: true, runHere: true }), undefined);
    const profile: ServerSource = { scope: 'user', label: 'VS Code user mcp.json', file: '/u/mcp.json', vscodeProfile: true };
    assert.equal(heldBackReason(profile, 'vscode', { builtinActive: true, readsProfile: true, runHere: true }), undefined);
    assert.equal(
      heldBackReason(rootFile, 'vscode', { builtinActive: true, readsProfile: true, runHere: false }),
      RUN_BY_VSCODE_REASON,
      'the others stay left to VS Code',
    );
  });

  // The first start no longer waits for VS Code to list its chat models (up to 3 s) for every
  // server: only for those whose runner the answer decides.
  it("only a server whose runner the chat models decide waits for them; the user's own servers start at once", () => {
    const profile: ServerSource = { scope: 'user', label: 'VS Code user mcp.json', file: '/u/mcp.json', vscodeProfile: true };
    const github: ServerSource = { scope: 'workspace', label: '.github/mcp.json', file: '/w/.github/mcp.json', folder: 'w', copilotPlace: true };
    // VS Code's host on, nothing chosen yet.
    assert.equal(waitsForRunnerDecision(vscodeFile, undefined, { builtinActive: true }), true, '.vscode/mcp.json: VS Code or us, the models decide');
    assert.equal(waitsForRunnerDecision(rootFile, undefined, { builtinActive: true }), true, '.mcp.json too');
    for (const source of [setting, cursorProject, claudeDesktop, profile]) {
      assert.equal(waitsForRunnerDecision(source, undefined, { builtinActive: true }), false, `${source.label}: the choice does not move it`);
    }
    assert.equal(
      waitsForRunnerDecision(github, undefined, { builtinActive: true, readsProfile: true, runHere: false, agentHost: false }),
      false,
      'Copilot places before 1.140: ours',
    );
    assert.equal(
      waitsForRunnerDecision(github, undefined, { builtinActive: true, readsProfile: true, runHere: false, agentHost: true }),
      true,
      '.github/mcp.json from 1.140: follows the choice',
    );
    // Nothing to wait for.
    assert.equal(waitsForRunnerDecision(vscodeFile, undefined, { builtinActive: false }), false, "VS Code's host off: ours");
    assert.equal(waitsForRunnerDecision(vscodeFile, 'vscode', { builtinActive: true }), false, 'a stored choice');
    assert.equal(waitsForRunnerDecision(vscodeFile, 'workbench', { builtinActive: true }), false, 'a stored choice');
    assert.equal(waitsForRunnerDecision(vscodeFile, undefined, { builtinActive: true, readsProfile: true, runHere: true }), false, 'Run Here on this one');
  });

  describe("GitHub Copilot's places (VS Code 1.140+'s Copilot agent host reads them; not testable in 1.139.1, so decided here)", () => {
    const github: ServerSource = { scope: 'workspace', label: '.github/mcp.json', file: '/w/.github/mcp.json', folder: 'w', copilotPlace: true };
    const copilotUser: ServerSource = { scope: 'user', label: 'Copilot mcp-config.json', file: '/h/.copilot/mcp-config.json', copilotPlace: true };

    it('the agent host comes with 1.140', () => {
      assert.equal(hasCopilotAgentHost('1.139.1'), false);
      assert.equal(hasCopilotAgentHost('1.100.3'), false);
      assert.equal(hasCopilotAgentHost('1.140.0'), true);
      assert.equal(hasCopilotAgentHost('1.141.0-insider'), true);
      assert.equal(hasCopilotAgentHost('2.0.0'), true);
      assert.equal(hasCopilotAgentHost('nonsense'), false);
    });

    it('before 1.140 nothing in VS Code reads them: we run them whatever the choice', () => {
      for (const source of [github, copilotUser]) {
        assert.equal(heldBackReason(source, undefined, { builtinActive: true, readsProfile: true, runHere: false, agentHost: false }), undefined, source.label);
        assert.equal(heldBackReason(source, 'vscode', { builtinActive: true, readsProfile: true, runHere: false, agentHost: false }), undefined, source.label);
        assert.equal(agentHostMayRunCopy(source, true, false), false, source.label);
      }
      assert.equal(coveredByRunnerChoice(github, false), false, 'the question is not about them');
      assert.equal(isSharedSource(github), false);
    });

    it('from 1.140 .github/mcp.json follows the workspace choice, the Copilot user file is left to VS Code (as the profile mcp.json)', () => {
      assert.equal(heldBackReason(github, undefined, { builtinActive: true, readsProfile: true, runHere: false, agentHost: true }), RUN_BY_AGENT_HOST_REASON);
      assert.equal(heldBackReason(github, 'vscode', { builtinActive: true, readsProfile: true, runHere: false, agentHost: true }), RUN_BY_AGENT_HOST_REASON);
      assert.equal(heldBackReason(github, 'workbench', { builtinActive: true, readsProfile: true, runHere: false, agentHost: true }), undefined);
      assert.equal(
        heldBackReason(copilotUser, 'workbench', { builtinActive: true, readsProfile: true, runHere: false, agentHost: true }),
        RUN_BY_AGENT_HOST_REASON,
        'the choice is about workspace servers',
      );
      assert.equal(
        heldBackReason(copilotUser, 'vscode', { builtinActive: true, readsProfile: true, runHere: true, agentHost: true }),
        undefined,
        'Run Here runs it',
      );
      assert.equal(
        heldBackReason(github, 'vscode', { builtinActive: false, readsProfile: true, runHere: false, agentHost: true }),
        undefined,
        "VS Code's MCP off: ours",
      );
      assert.equal(coveredByRunnerChoice(github, true), true, 'the question covers .github/mcp.json');
      assert.equal(coveredByRunnerChoice(copilotUser, true), false);
      assert.ok(leftToVsCode(RUN_BY_AGENT_HOST_REASON), 'the row offers Run Here');
      assert.ok(leftToVsCode(RUN_BY_VSCODE_REASON));
      assert.equal(leftToVsCode('disabled'), false);
    });

    it('while we run them from 1.140 the row says the agent host may run a copy (chat.mcp.autostart does not stop it); never offered to the agent', () => {
      assert.equal(agentHostMayRunCopy(github, true, true), true);
      assert.equal(agentHostMayRunCopy(copilotUser, true, true), true);
      assert.equal(agentHostMayRunCopy(github, false, true), false, "VS Code's MCP off");
      assert.equal(agentHostMayRunCopy(vscodeFile, true, true), false, 'other files: the runner choice and chat.mcp.autostart keep one process');
      // The agent host reads them itself: offering ours too would list the tools twice.
      assert.equal(offeredToAgent(github, true, true, 'workbench'), false);
      assert.equal(offeredToAgent(copilotUser, true, true, 'workbench'), false);
    });
  });

  it('the view asks only when the decision asks and such servers exist', () => {
    assert.equal(shouldAskRunner({ runner: 'vscode', ask: true }, 1), true);
    assert.equal(shouldAskRunner({ runner: 'vscode', ask: true }, 0), false, 'no shared servers');
    assert.equal(shouldAskRunner({ runner: 'workbench', ask: false }, 3), false, 'run here without asking, or chosen');
  });

  it("are offered to VS Code's agent only when we run them, VS Code's host is on and they run", () => {
    assert.equal(offeredToAgent(vscodeFile, true, true, 'workbench'), true);
    assert.equal(offeredToAgent(rootFile, true, true, 'workbench'), true);
    assert.equal(offeredToAgent(vscodeFile, false, true, 'workbench'), false, 'not running here');
    assert.equal(offeredToAgent(vscodeFile, true, true, 'vscode'), false, 'VS Code runs them itself');
    assert.equal(offeredToAgent(vscodeFile, true, true, undefined), false, 'not chosen: VS Code runs them');
    assert.equal(offeredToAgent(vscodeFile, true, false, 'workbench'), false, "VS Code's host is off: no agent to offer them to");
    assert.equal(offeredToAgent(setting, true, true, 'workbench'), false, 'servers only we know stay ours');
    assert.equal(offeredToAgent(cursorProject, true, true, 'workbench'), false, 'discovery imports stay ours');
  });

  it('"Run them here" offers "chat.mcp.autostart": "never" where VS Code has the setting and it is not never already', () => {
    assert.equal(shouldOfferAutostartNever(true, 'newAndOutdated'), true);
    assert.equal(shouldOfferAutostartNever(true, 'onlyNew'), true);
    assert.equal(shouldOfferAutostartNever(true, undefined), true);
    assert.equal(shouldOfferAutostartNever(true, 'never'), false, 'already never (any level)');
    assert.equal(shouldOfferAutostartNever(false, undefined), false, 'VS Code 1.100 has no such setting');
  });

  it('reads only the two known choices from workspace state', () => {
    assert.equal(parseRunner('vscode'), 'vscode');
    assert.equal(parseRunner('workbench'), 'workbench');
    assert.equal(parseRunner('Workbench'), undefined);
    assert.equal(parseRunner(undefined), undefined);
    assert.equal(parseRunner({ runner: 'vscode' }), undefined);
  });
});

describe('the first open: who runs the workspace servers', () => {
  it("VS Code's agent can use them only with its MCP host on and a chat model", () => {
    assert.equal(agentCanUseServers(true, true), true);
    assert.equal(agentCanUseServers(true, false), false, 'no chat model (no Copilot, not signed in)');
    assert.equal(agentCanUseServers(false, true), false, 'MCP access off, or chat / AI features off');
    assert.equal(agentCanUseServers(false, false), false);
  });

  // agentCanUse × stored choice × started here unasked → decision; each row says why.
  const table: [boolean, 'vscode' | 'workbench' | undefined, boolean, { runner: string; ask: boolean }, string][] = [
    [false, undefined, false, { runner: 'workbench', ask: false }, 'a new user without a chat model: run them here, no question'],
    [false, undefined, true, { runner: 'workbench', ask: false }, 'still no model'],
    [true, undefined, false, { runner: 'vscode', ask: true }, "VS Code's agent could run them: ask in the view; until then VS Code does (nothing twice)"],
    [true, undefined, true, { runner: 'workbench', ask: true }, 'a model appeared after we started them: ask, but do not stop what runs'],
    [true, 'vscode', false, { runner: 'vscode', ask: false }, 'chosen: VS Code'],
    [true, 'workbench', false, { runner: 'workbench', ask: false }, 'chosen: MCP Workbench'],
    [false, 'vscode', true, { runner: 'vscode', ask: false }, 'a stored choice is followed even without a model'],
    [false, 'workbench', false, { runner: 'workbench', ask: false }, 'chosen: MCP Workbench, no model'],
  ];
  for (const [agentCanUse, stored, startedHere, expected, why] of table) {
    it(`agent ${agentCanUse ? 'can' : 'cannot'} use them, stored ${stored ?? 'nothing'}${startedHere ? ', started here' : ''} → ${JSON.stringify(expected)} (${why})`, () => {
      assert.deepEqual(decideRunner(agentCanUse, stored, startedHere), expected);
    });
  }
});
