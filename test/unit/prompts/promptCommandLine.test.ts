import * as assert from 'node:assert/strict';
import {
  bindPromptArguments,
  parsePromptCommandLine,
  quoteArgument,
  resolvePromptTarget,
  type PromptArgumentInfo,
} from '../../../src/prompts/common/promptCommandLine';

function parse(text: string) {
  const r = parsePromptCommandLine(text);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

const REVIEW: PromptArgumentInfo[] = [{ name: 'code', required: true }, { name: 'language' }, { name: 'focus' }];

describe('promptCommandLine', () => {
  describe('parsePromptCommandLine', () => {
    it('splits the target and key=value pairs', () => {
      assert.deepEqual(parse('/fixture.greet name=Ada style=formal'), {
        target: 'fixture.greet',
        named: [
          { key: 'name', value: 'Ada' },
          { key: 'style', value: 'formal' },
        ],
        positional: [],
      });
    });

    it('keeps spaces inside double and single quotes, and quotes inside a token', () => {
      const line = parse(`/s.p name="Ada Lovelace" note='it''s' path=a" b"c`);
      assert.deepEqual(line.named, [
        { key: 'name', value: 'Ada Lovelace' },
        { key: 'note', value: 'its' },
        { key: 'path', value: 'a bc' },
      ]);
    });

    it('unescapes \\" and \\\\ in double quotes and outside quotes; single quotes are literal', () => {
      const line = parse(String.raw`/s.p a="say \"hi\"" b=x\ y c='a\b'`);
      assert.deepEqual(line.named, [
        { key: 'a', value: 'say "hi"' },
        { key: 'b', value: 'x y' },
        { key: 'c', value: String.raw`a\b` },
      ]);
    });

    it('keeps "=" inside values and quoted keys as positional text', () => {
      const line = parse(`/s.p expr=a=b "x=y" url=https://h/?q=1`);
      assert.deepEqual(line.named, [
        { key: 'expr', value: 'a=b' },
        { key: 'url', value: 'https://h/?q=1' },
      ]);
      assert.deepEqual(line.positional, ['x=y']);
    });

    it('accepts empty values, extra whitespace and a missing slash', () => {
      const line = parse('  s.p   a=""   b=  ');
      assert.equal(line.target, 's.p');
      assert.deepEqual(line.named, [
        { key: 'a', value: '' },
        { key: 'b', value: '' },
      ]);
    });

    it('reports an unclosed quote with its column', () => {
      const r = parsePromptCommandLine('/s.p name="Ada');
      assert.equal(r.ok, false);
      assert.match((r as { error: string }).error, /quote opened at column 11 is not closed/);
    });

    it('reports a missing prompt name and "=value" without a key', () => {
      assert.equal(parsePromptCommandLine('   ').ok, false);
      assert.equal(parsePromptCommandLine('/').ok, false);
      const r = parsePromptCommandLine('/s.p =x');
      assert.equal(r.ok, false);
    });
  });

  describe('resolvePromptTarget', () => {
    const candidates = [
      { serverName: 'fixture', promptName: 'greet', data: 1 },
      { serverName: 'my.server', promptName: 'greet', data: 2 },
      { serverName: 'fixture', promptName: 'review', data: 3 },
    ];

    it('matches server names that contain dots', () => {
      const r = resolvePromptTarget('my.server.greet', candidates);
      assert.ok(r.ok);
      assert.equal(r.value.data, 2);
    });

    it('falls back to case-insensitive, and to a prompt name that only one server has', () => {
      const a = resolvePromptTarget('FIXTURE.Review', candidates);
      assert.ok(a.ok && a.value.data === 3);
      const b = resolvePromptTarget('review', candidates);
      assert.ok(b.ok && b.value.data === 3);
    });

    it('explains an ambiguous prompt name and an unknown one', () => {
      const a = resolvePromptTarget('greet', candidates);
      assert.equal(a.ok, false);
      assert.match((a as { error: string }).error, /Several servers have a prompt "greet".*\/fixture\.greet.*\/my\.server\.greet/);
      const b = resolvePromptTarget('fixture.gret', candidates);
      assert.equal(b.ok, false);
      assert.match((b as { error: string }).error, /There is no prompt "fixture.gret"/);
      const c = resolvePromptTarget('x.y', []);
      assert.match((c as { error: string }).error, /no running MCP server offers prompts/);
    });
  });

  describe('bindPromptArguments', () => {
    it('binds named values and fills positional values in declaration order', () => {
      const r = bindPromptArguments(REVIEW, { named: [{ key: 'language', value: 'go' }], positional: ['x := 1', 'bugs'] }, '/f.review');
      assert.deepEqual(r, { ok: true, value: { language: 'go', code: 'x := 1', focus: 'bugs' } });
    });

    it('rejects unknown keys and lists the arguments the prompt has', () => {
      const r = bindPromptArguments(
        REVIEW,
        {
          named: [
            { key: 'code', value: 'x' },
            { key: 'lang', value: 'go' },
          ],
          positional: [],
        },
        '/f.review',
      );
      assert.equal(r.ok, false);
      assert.equal((r as { error: string }).error, 'Unknown argument "lang" for /f.review. Its arguments: code (required), language, focus.');
    });

    it('rejects duplicates, surplus values and missing required arguments', () => {
      const dup = bindPromptArguments(
        REVIEW,
        {
          named: [
            { key: 'code', value: 'a' },
            { key: 'code', value: 'b' },
          ],
          positional: [],
        },
        '/f.review',
      );
      assert.match((dup as { error: string }).error, /"code" is given twice/);
      const surplus = bindPromptArguments([{ name: 'a' }], { named: [], positional: ['1', '2'] }, '/f.p');
      assert.match((surplus as { error: string }).error, /Too many values for \/f\.p: "2"/);
      const missing = bindPromptArguments(REVIEW, { named: [{ key: 'language', value: 'go' }], positional: [] }, '/f.review');
      assert.match((missing as { error: string }).error, /Missing required argument "code" for \/f\.review\. Example: \/f\.review code=…/);
    });

    it('rejects every argument of a prompt that has none', () => {
      const r = bindPromptArguments([], { named: [{ key: 'x', value: '1' }], positional: [] }, '/f.noargs');
      assert.match((r as { error: string }).error, /Its arguments: none/);
    });
  });

  it('quoteArgument round-trips through the parser', () => {
    for (const value of ['plain', 'two words', 'say "hi"', String.raw`back\slash`, 'a=b', '']) {
      const line = parse(`/s.p k=${quoteArgument(value)}`);
      assert.deepEqual(line.named, [{ key: 'k', value }], value);
    }
  });
});
