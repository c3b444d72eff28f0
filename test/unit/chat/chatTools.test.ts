import * as assert from 'node:assert/strict';
import { applyToolBudget, assignChatToolNames, CHAT_TOOL_NAME, relevance, terms, toolKey } from '../../../src/chat/common/chatTools';

const tool = (serverName: string, toolName: string, description?: string, title?: string) => ({
  serverId: `id:${serverName}`,
  serverName,
  toolName,
  description,
  title,
});

describe('chatTools', () => {
  describe('assignChatToolNames', () => {
    it('keeps readable names when they are valid', () => {
      const names = assignChatToolNames([tool('fixture', 'echo'), tool('fixture', 'add')]);
      assert.deepEqual([...names.keys()], ['fixture_echo', 'fixture_add']);
      assert.equal(names.get('fixture_echo')?.toolName, 'echo');
    });

    it('makes every name valid, unique and at most 64 characters, and maps back', () => {
      const sources = [
        tool('my server', 'get/thing'),
        tool('my_server', 'get_thing'),
        tool('my-server', 'get.thing'),
        tool('x'.repeat(80), 'y'.repeat(80)),
        tool('x'.repeat(80), 'y'.repeat(81)),
        tool('ünïcode', '工具'),
      ];
      const names = assignChatToolNames(sources);
      assert.equal(names.size, sources.length);
      for (const [name, source] of names) {
        assert.match(name, CHAT_TOOL_NAME, name);
        assert.ok(sources.includes(source));
      }
    });

    it('gives the same names on every call (stable across requests)', () => {
      const sources = [tool('a b', 'c'), tool('a_b', 'c'), tool('z', 'q')];
      assert.deepEqual([...assignChatToolNames(sources).keys()], [...assignChatToolNames(sources).keys()]);
    });
  });

  describe('relevance and budget', () => {
    it('splits camelCase and snake_case and drops stop words', () => {
      assert.deepEqual(terms('Please readFile for the user_name'), ['read', 'file', 'user', 'name']);
    });

    it('scores name/title hits above description hits, with prefix matching', () => {
      const files = tool('fs', 'readFile', 'Reads a file from disk');
      const weather = tool('wx', 'forecast', 'Weather forecast for a city, reads files never');
      assert.equal(relevance('read the files in src', files), 6);
      assert.equal(relevance('read the files in src', weather), 2);
      assert.equal(relevance('', files), 0);
    });

    it('offers the most relevant tools first, at most max, without the disabled ones', () => {
      const tools = [
        tool('s', 'alpha', 'unrelated'),
        tool('s', 'weather', 'forecast'),
        tool('s', 'beta'),
        tool('s', 'forecastCity', 'weather by city'),
        tool('s', 'gamma'),
      ];
      const result = applyToolBudget(tools, 'weather forecast for Paris', 3, (t) => t.toolName === 'weather');
      assert.deepEqual(
        result.offered.map((t) => t.toolName),
        ['forecastCity', 'alpha', 'beta'],
      );
      assert.deepEqual(
        result.dropped.map((t) => t.toolName),
        ['gamma'],
      );
      assert.deepEqual(
        result.disabled.map((t) => t.toolName),
        ['weather'],
      );
    });

    it('keeps the given order for equal scores and honours a budget of 0', () => {
      const tools = [tool('a', 'one'), tool('a', 'two'), tool('b', 'three')];
      assert.deepEqual(
        applyToolBudget(tools, 'hello', 2, () => false).offered.map((t) => t.toolName),
        ['one', 'two'],
      );
      assert.deepEqual(applyToolBudget(tools, 'hello', 0, () => false).offered, []);
    });
  });

  it('toolKey is stable and unambiguous', () => {
    assert.equal(toolKey('a', 'b'), '["a","b"]');
    assert.notEqual(toolKey('a.b', 'c'), toolKey('a', 'b.c'));
  });
});
