import * as assert from 'node:assert/strict';
import { assignLabels, diffDefinitions, parseEnvFile, type ServerDefinition } from '../../../src/config/common/launchDefinition';
import { DEFAULT_TIMEOUTS } from '../../../src/config/common/serverConfig';

function def(id: string, command: string, extra: Partial<ServerDefinition> = {}): ServerDefinition {
  return {
    id,
    name: id,
    label: id,
    source: { scope: 'workspace', label: '.vscode/mcp.json' },
    disabled: false,
    timeouts: DEFAULT_TIMEOUTS,
    launch: { type: 'stdio', command, args: [], env: {}, cwd: '/w' },
    secrets: [],
    ...extra,
  };
}

describe('diffDefinitions', () => {
  it('sorts servers into added, removed, changed and unchanged', () => {
    const before = [def('a', 'x'), def('b', 'y'), def('c', 'z')];
    const after = [def('a', 'x', { label: 'renamed', source: { scope: 'workspace', label: 'f', line: 9 } }), def('b', 'y2'), def('d', 'w')];
    const diff = diffDefinitions(before, after);
    assert.deepEqual(
      diff.added.map((d) => d.id),
      ['d'],
    );
    assert.deepEqual(
      diff.removed.map((d) => d.id),
      ['c'],
    );
    assert.deepEqual(
      diff.changed.map((d) => d.id),
      ['b'],
    );
    assert.deepEqual(
      diff.unchanged.map((d) => d.id),
      ['a'],
    );
  });

  it('does not restart for timeouts but does for env, disabled and inputs', () => {
    const base = def('a', 'x');
    assert.equal(diffDefinitions([base], [{ ...base, timeouts: { ...DEFAULT_TIMEOUTS, request: 5 } }]).changed.length, 0);
    assert.equal(diffDefinitions([base], [{ ...base, launch: { ...base.launch, env: { A: '1' } } as ServerDefinition['launch'] }]).changed.length, 1);
    assert.equal(diffDefinitions([base], [{ ...base, disabled: true }]).changed.length, 1);
    assert.equal(diffDefinitions([{ ...base, missingInputs: ['k'] }], [base]).changed.length, 1);
    assert.equal(diffDefinitions([base], [{ ...base, protocolEra: 'legacy' }]).changed.length, 1, 'a new era restarts');
    assert.equal(diffDefinitions([base], [{ ...base, protocolEra: 'auto' }]).changed.length, 0, 'absent means auto');
  });

  it('labels servers that share a name with their source', () => {
    const defs = [
      def('1', 'x', { name: 'w' }),
      def('2', 'x', { name: 'w', source: { scope: 'workspace', label: '.mcp.json', folder: 'app' } }),
      def('3', 'x', { name: 'solo' }),
    ];
    assignLabels(defs);
    assert.deepEqual(
      defs.map((d) => d.label),
      ['w (.vscode/mcp.json)', 'w (app: .mcp.json)', 'solo'],
    );
  });
});

describe('parseEnvFile', () => {
  it('reads dotenv syntax', () => {
    assert.deepEqual(parseEnvFile('# c\nA=1\nexport B = two words # note\nC="quoted # not a comment"\nD=\'single\'\nbad line\nE="a\\nb"\n'), {
      A: '1',
      B: 'two words',
      C: 'quoted # not a comment',
      D: 'single',
      E: 'a\nb',
    });
  });
});
