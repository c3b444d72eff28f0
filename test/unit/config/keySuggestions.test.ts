import * as assert from 'node:assert/strict';
import { editDistance, SERVER_ENTRY_KEYS, suggestKey } from '../../../src/config/common/keySuggestions';

describe('suggestKey', () => {
  it('counts a swap of neighbours as one edit (Damerau-Levenshtein)', () => {
    assert.equal(editDistance('comamnd', 'command'), 1);
    assert.equal(editDistance('comand', 'command'), 1);
    assert.equal(editDistance('cmomadn', 'command'), 2);
    assert.equal(editDistance('ca', 'abc'), 3, 'optimal string alignment: no edit of a swapped pair');
    assert.equal(editDistance('', 'abc'), 3);
  });

  it('finds every known key from a near miss', () => {
    const misses: Record<string, string> = {
      comand: 'command',
      commnad: 'command',
      Command: 'command',
      arg: 'args',
      agrs: 'args',
      evn: 'env',
      envs: 'env',
      envfile: 'envFile',
      env_file: 'envFile',
      cdw: 'cwd',
      ulr: 'url',
      uri: 'url',
      header: 'headers',
      hedaers: 'headers',
      disable: 'disabled',
      disbled: 'disabled',
      timout: 'timeouts',
      protocolera: 'protocolEra',
      oath: 'oauth',
      devv: 'dev',
      tpye: 'type',
    };
    for (const [miss, key] of Object.entries(misses)) assert.equal(suggestKey(miss), key, miss);
    for (const key of SERVER_ENTRY_KEYS) assert.equal(suggestKey(key), undefined, `${key} is known`);
  });

  it('maps the words people use for a key', () => {
    assert.equal(suggestKey('cmd'), 'command');
    assert.equal(suggestKey('arguments'), 'args');
    assert.equal(suggestKey('enviroment'), 'env');
    assert.equal(suggestKey('workingDirectory'), 'cwd');
  });

  it("leaves other hosts' keys and far-off words alone", () => {
    for (const key of ['timeout', 'autoApprove', 'alwaysAllow', 'disabledTools', 'serverUrl', 'description', 'foo', 'xyz', 'commands2x']) {
      assert.equal(suggestKey(key), undefined, key);
    }
  });
});
