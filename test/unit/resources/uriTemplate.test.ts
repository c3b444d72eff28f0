import * as assert from 'node:assert/strict';
import { expandUriTemplate, isUriTemplate, parseUriTemplate, templateVariables, UriTemplateError } from '../../../src/resources/common/uriTemplate';

// The example variables of RFC 6570 section 3.2.
const vars = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  empty_keys: {},
  undef: undefined,
};

function check(cases: [string, string][]): void {
  for (const [template, expected] of cases) assert.equal(expandUriTemplate(template, vars), expected, template);
}

describe('uriTemplate (RFC 6570)', () => {
  it('level 1 and simple string expansion {var}', () => {
    check([
      ['{var}', 'value'],
      ['{hello}', 'Hello%20World%21'],
      ['{half}', '50%25'],
      ['O{empty}X', 'OX'],
      ['O{undef}X', 'OX'],
      ['{x,y}', '1024,768'],
      ['{x,hello,y}', '1024,Hello%20World%21,768'],
      ['?{x,empty}', '?1024,'],
      ['?{x,undef}', '?1024'],
      ['?{undef,y}', '?768'],
      ['{var:3}', 'val'],
      ['{var:30}', 'value'],
      ['{list}', 'red,green,blue'],
      ['{list*}', 'red,green,blue'],
      ['{keys}', 'semi,%3B,dot,.,comma,%2C'],
      ['{keys*}', 'semi=%3B,dot=.,comma=%2C'],
    ]);
  });

  it('reserved expansion {+var}', () => {
    check([
      ['{+var}', 'value'],
      ['{+hello}', 'Hello%20World!'],
      ['{+half}', '50%25'],
      ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
      ['{+base}index', 'http://example.com/home/index'],
      ['O{+empty}X', 'OX'],
      ['{+path}/here', '/foo/bar/here'],
      ['here?ref={+path}', 'here?ref=/foo/bar'],
      ['up{+path}{var}/here', 'up/foo/barvalue/here'],
      ['{+x,hello,y}', '1024,Hello%20World!,768'],
      ['{+path,x}/here', '/foo/bar,1024/here'],
      ['{+path:6}/here', '/foo/b/here'],
      ['{+list}', 'red,green,blue'],
      ['{+list*}', 'red,green,blue'],
      ['{+keys}', 'semi,;,dot,.,comma,,'],
      ['{+keys*}', 'semi=;,dot=.,comma=,'],
    ]);
    // Pct-encoded triplets already in a value survive reserved expansion.
    assert.equal(expandUriTemplate('{+p}', { p: 'a%20b%zz' }), 'a%20b%25zz');
  });

  it('fragment expansion {#var}', () => {
    check([
      ['{#var}', '#value'],
      ['{#hello}', '#Hello%20World!'],
      ['{#half}', '#50%25'],
      ['foo{#empty}', 'foo#'],
      ['foo{#undef}', 'foo'],
      ['{#x,hello,y}', '#1024,Hello%20World!,768'],
      ['{#path,x}/here', '#/foo/bar,1024/here'],
      ['{#path:6}/here', '#/foo/b/here'],
      ['{#list}', '#red,green,blue'],
      ['{#list*}', '#red,green,blue'],
      ['{#keys}', '#semi,;,dot,.,comma,,'],
      ['{#keys*}', '#semi=;,dot=.,comma=,'],
    ]);
  });

  it('label expansion with dot-prefix {.var}', () => {
    check([
      ['{.who}', '.fred'],
      ['{.who,who}', '.fred.fred'],
      ['{.half,who}', '.50%25.fred'],
      ['www{.dom*}', 'www.example.com'],
      ['X{.var}', 'X.value'],
      ['X{.empty}', 'X.'],
      ['X{.undef}', 'X'],
      ['X{.var:3}', 'X.val'],
      ['X{.list}', 'X.red,green,blue'],
      ['X{.list*}', 'X.red.green.blue'],
      ['X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
      ['X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
      ['X{.empty_keys}', 'X'],
      ['X{.empty_keys*}', 'X'],
    ]);
  });

  it('path segment expansion {/var}', () => {
    check([
      ['{/who}', '/fred'],
      ['{/who,who}', '/fred/fred'],
      ['{/half,who}', '/50%25/fred'],
      ['{/who,dub}', '/fred/me%2Ftoo'],
      ['{/var}', '/value'],
      ['{/var,empty}', '/value/'],
      ['{/var,undef}', '/value'],
      ['{/var,x}/here', '/value/1024/here'],
      ['{/var:1,var}', '/v/value'],
      ['{/list}', '/red,green,blue'],
      ['{/list*}', '/red/green/blue'],
      ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
      ['{/keys}', '/semi,%3B,dot,.,comma,%2C'],
      ['{/keys*}', '/semi=%3B/dot=./comma=%2C'],
    ]);
  });

  it('path-style parameter expansion {;var}', () => {
    check([
      ['{;who}', ';who=fred'],
      ['{;half}', ';half=50%25'],
      ['{;empty}', ';empty'],
      ['{;v,empty,who}', ';v=6;empty;who=fred'],
      ['{;v,bar,who}', ';v=6;who=fred'],
      ['{;x,y}', ';x=1024;y=768'],
      ['{;x,y,empty}', ';x=1024;y=768;empty'],
      ['{;x,y,undef}', ';x=1024;y=768'],
      ['{;hello:5}', ';hello=Hello'],
      ['{;list}', ';list=red,green,blue'],
      ['{;list*}', ';list=red;list=green;list=blue'],
      ['{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
      ['{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
    ]);
  });

  it('form-style query expansion {?var}', () => {
    check([
      ['{?who}', '?who=fred'],
      ['{?half}', '?half=50%25'],
      ['{?x,y}', '?x=1024&y=768'],
      ['{?x,y,empty}', '?x=1024&y=768&empty='],
      ['{?x,y,undef}', '?x=1024&y=768'],
      ['{?var:3}', '?var=val'],
      ['{?list}', '?list=red,green,blue'],
      ['{?list*}', '?list=red&list=green&list=blue'],
      ['{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
      ['{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
    ]);
  });

  it('form-style query continuation {&var}', () => {
    check([
      ['{&who}', '&who=fred'],
      ['{&half}', '&half=50%25'],
      ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
      ['{&x,y,empty}', '&x=1024&y=768&empty='],
      ['{&var:3}', '&var=val'],
      ['{&list}', '&list=red,green,blue'],
      ['{&list*}', '&list=red&list=green&list=blue'],
      ['{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
      ['{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
    ]);
  });

  it('encodes non-ASCII as UTF-8 and keeps literals', () => {
    assert.equal(expandUriTemplate('fixture://items/{id}', { id: 'café ☕' }), 'fixture://items/caf%C3%A9%20%E2%98%95');
    assert.equal(expandUriTemplate('file:///{+path}', { path: 'a b/c' }), 'file:///a%20b/c');
    assert.equal(expandUriTemplate('{?q}', { q: 1 as unknown as string }), '?q=1');
  });

  it('extracts variables in order, once each, with operator and modifiers', () => {
    assert.deepEqual(templateVariables('fixture://items/{id}'), [{ name: 'id', operator: '', explode: false }]);
    assert.deepEqual(templateVariables('{/a,b*}{?c:3,a}{#d}'), [
      { name: 'a', operator: '/', explode: false },
      { name: 'b', operator: '/', explode: true },
      { name: 'c', operator: '?', explode: false, prefix: 3 },
      { name: 'd', operator: '#', explode: false },
    ]);
    assert.deepEqual(templateVariables('no/vars/here'), []);
    assert.equal(parseUriTemplate('a{b}c').length, 3);
  });

  it('rejects malformed templates with a position', () => {
    for (const bad of ['{unclosed', 'x}', '{a b}', '{=x}', '{x:0}', '{x:10000}', '{}', '{a{b}}']) {
      assert.throws(() => parseUriTemplate(bad), UriTemplateError, bad);
    }
    assert.equal(isUriTemplate('fixture://items/{id}'), true);
    assert.equal(isUriTemplate('fixture://static/hello'), false);
    assert.equal(isUriTemplate('{broken'), false);
  });
});
