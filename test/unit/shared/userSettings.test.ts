import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { USER_ONLY_SETTINGS, userLevelCap, userLevelValue } from '../../../src/shared/common/userSettings';
import { effectivePolicy, userPolicies, userRateLimit } from '../../../src/approval/common/approvalPolicy';

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { scope?: string; default?: number; minimum?: number; maximum?: number }> } };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations?: string[] } };
};
const properties = manifest.contributes.configuration.properties;

describe('user-only settings', () => {
  it('take the user value and never a workspace or folder value', () => {
    const inspected = {
      defaultValue: '',
      globalValue: 'http://localhost:11434/v1',
      workspaceValue: 'https://attacker.example/v1',
      workspaceFolderValue: 'https://folder.example/v1',
    };
    assert.equal(userLevelValue(inspected, ''), 'http://localhost:11434/v1');
    assert.equal(userLevelValue({ defaultValue: 10, workspaceValue: 0 }, 10), 10);
    assert.deepEqual(userLevelValue<Record<string, string>>({ defaultValue: {}, workspaceValue: { '*': 'always' } }, {}), {});
    assert.equal(userLevelValue(undefined, 'fallback'), 'fallback');
    assert.equal(userLevelValue({ workspaceValue: 'x' }, 'fallback'), 'fallback');
  });

  it('sampling: a workspace can neither answer for the user nor lift the rate limit', () => {
    const weather = {
      name: 'weather',
      source: { scope: 'user' as const, label: 'Settings (mcpWorkbench.servers)', userSettings: true },
      launch: { type: 'http' as const, url: 'https://w.example/mcp', headers: {} },
    };
    const policies = userPolicies({ defaultValue: {}, workspaceValue: { weather: 'always' } });
    assert.equal(effectivePolicy(weather, policies, new Map()), 'ask');
    assert.equal(
      effectivePolicy(weather, userPolicies({ defaultValue: {}, globalValue: { weather: 'always' }, workspaceValue: { weather: 'never' } }), new Map()),
      'always',
    );
    assert.equal(userRateLimit({ defaultValue: 10, workspaceValue: 0 }), 10);
    assert.equal(userRateLimit({ defaultValue: 10, globalValue: 0, workspaceValue: 100 }), 0);
  });

  it("memory caps: a workspace cannot lift them, and even the user's value is clamped to the declared bounds", () => {
    for (const key of ['maxMessageSizeMB', 'activity.maxEntries'] as const) {
      const declared = properties[`mcpWorkbench.${key}`];
      assert.ok(declared.scope === 'application' || declared.scope === 'machine', `mcpWorkbench.${key} has scope ${declared.scope}`);
      assert.ok(declared.minimum !== undefined && declared.maximum !== undefined, `mcpWorkbench.${key} declares its bounds`);
      const { minimum, maximum } = declared as { minimum: number; maximum: number };
      assert.equal(userLevelCap(key, { defaultValue: declared.default, workspaceValue: 10_000_000 }), declared.default, `${key}: a workspace value is ignored`);
      assert.equal(
        userLevelCap(key, { defaultValue: declared.default, workspaceFolderValue: 10_000_000 }),
        declared.default,
        `${key}: a folder value is ignored`,
      );
      assert.equal(userLevelCap(key, { defaultValue: declared.default, globalValue: 10_000_000 }), maximum, `${key}: clamped to the maximum`);
      assert.equal(userLevelCap(key, { defaultValue: declared.default, globalValue: -5 }), minimum, `${key}: clamped to the minimum`);
      assert.equal(userLevelCap(key, { defaultValue: declared.default, globalValue: 'lots' }), declared.default, `${key}: not a number`);
    }
  });

  it('are declared so that a workspace cannot set them (application or machine scope)', () => {
    for (const key of USER_ONLY_SETTINGS) {
      const scope = properties[`mcpWorkbench.${key}`]?.scope;
      assert.ok(scope === 'application' || scope === 'machine', `mcpWorkbench.${key} has scope ${scope}`);
    }
  });

  it('the other model and sampling settings are ignored in untrusted workspaces', () => {
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
    const rest = Object.keys(properties).filter(
      (k) => /^mcpWorkbench\.(models|sampling|approval)\./.test(k) && !USER_ONLY_SETTINGS.some((u) => k === `mcpWorkbench.${u}`),
    );
    assert.ok(rest.length >= 2, rest.join(', '));
    for (const key of rest) assert.ok(restricted.includes(key), `${key} is not in restrictedConfigurations`);
  });
});
