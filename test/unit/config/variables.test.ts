import * as assert from 'node:assert/strict';
import { inputIdsUsed, resolveEntry, type VariableContext } from '../../../src/config/common/variables';

const ctx: VariableContext = {
  workspaceFolder: '/ws/app',
  workspaceFolders: [
    { name: 'app', path: '/ws/app' },
    { name: 'lib', path: '/ws/lib' },
  ],
  userHome: '/home/u',
  env: { TOKEN: 'abc' },
  inputs: { key: 'secret-value' },
};

describe('variables', () => {
  it('resolves every supported variable in every field', () => {
    const { entry, errors } = resolveEntry(
      {
        type: 'stdio',
        command: '${workspaceFolder}/bin/server',
        args: ['${workspaceFolder:lib}', '${userHome}/x', '${env:TOKEN}', '${env:MISSING}', '${workspaceFolderBasename}'],
        env: { KEY: '${input:key}', GONE: null },
        cwd: '${workspaceFolder:lib}',
      },
      ctx,
    );
    assert.deepEqual(errors, []);
    assert.equal(entry.command, '/ws/app/bin/server');
    assert.deepEqual(entry.args, ['/ws/lib', '/home/u/x', 'abc', '', 'app']);
    assert.deepEqual(entry.env, { KEY: 'secret-value', GONE: null });
    assert.equal(entry.cwd, '/ws/lib');
  });

  it('explains what cannot be resolved', () => {
    const { errors } = resolveEntry({ type: 'http', url: '${workspaceFolder:nope}/${foo}', headers: { A: '${input:other}' } }, ctx);
    assert.equal(errors.length, 3);
    assert.match(errors[0], /names no open workspace folder \(open folders: app, lib\)/);
    assert.match(errors[1], /Unknown variable \$\{foo\}/);
    assert.match(errors[2], /\$\{input:other\} has no value/);
  });

  it('lists input ids in order of first use', () => {
    assert.deepEqual(inputIdsUsed({ type: 'stdio', command: 'x', args: ['${input:b}', '${input:a}'], env: { X: '${input:b}' } }), ['b', 'a']);
  });
});
