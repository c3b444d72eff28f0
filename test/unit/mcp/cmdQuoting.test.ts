/**
 * `.cmd`/`.bat` commands (npx, npm, uvx shims) on Windows run through `cmd /d /s /c "…"`, and
 * cmd.exe acts on `& | < > ^ %` and quotes before the program sees its arguments: a server's
 * argument must reach the program as written and never start a second command. cmd.exe is
 * not available here, so its parsing (the caret and quote rules of `/s /c`, then the batch
 * file's own parse of `%*`) and the C runtime's argv rules are simulated.
 */
import * as assert from 'node:assert/strict';
import { quoteCmdArgument } from '../../../src/mcp/process/commandResolution';
import { planStdioSpawn } from '../../../src/mcp/process/stdioSpawn';

const HOSTILE = [
  '-y',
  'pkg&calc',
  'a|b',
  '>out.txt',
  '<in',
  'say "hi"&calc',
  '"',
  'a b',
  'tab\there',
  'back\\',
  'back\\"q',
  '^',
  '%PATH%',
  '!x!',
  '(x)',
  'a,b;c=d',
  '*?',
  '',
];

/** One pass of cmd.exe over a command line: carets escape outside quotes, quotes toggle; returns the text and whether an unescaped operator was met. */
function cmdPass(line: string): { text: string; operator?: string } {
  let out = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') {
      quoted = !quoted;
      out += c;
    } else if (!quoted && c === '^') {
      out += line[++i] ?? '';
    } else if (!quoted && '&|<>'.includes(c)) {
      return { text: out, operator: line.slice(i) };
    } else {
      out += c;
    }
  }
  return { text: out };
}

/** The Microsoft C runtime's argv rules (what node.exe and most programs use). */
function parseArgv(line: string): string[] {
  const args: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (i >= line.length) break;
    let arg = '';
    let quoted = false;
    for (; i < line.length; i++) {
      const c = line[i];
      if (c === '\\') {
        let n = 0;
        while (line[i] === '\\') {
          n++;
          i++;
        }
        if (line[i] === '"') {
          arg += '\\'.repeat(Math.floor(n / 2));
          if (n % 2) arg += '"';
          else {
            i--;
            continue;
          }
        } else {
          arg += '\\'.repeat(n);
          i--;
        }
      } else if (c === '"') {
        if (quoted && line[i + 1] === '"') {
          arg += '"';
          i++;
        } else quoted = !quoted;
      } else if (!quoted && (c === ' ' || c === '\t')) {
        break;
      } else {
        arg += c;
      }
    }
    args.push(arg);
  }
  return args;
}

describe('Windows: .cmd shims through cmd.exe', () => {
  const shim = 'C:\\Program Files\\nodejs\\npx.cmd';
  const plan = () =>
    planStdioSpawn(
      { type: 'stdio', command: 'npx', args: HOSTILE, env: {}, cwd: undefined },
      { PATH: 'C:\\Program Files\\nodejs', PATHEXT: '.EXE;.CMD', ComSpec: 'C:\\Windows\\system32\\cmd.exe' },
      'server "x"',
      undefined,
      { platform: 'win32', isExecutableFile: (f) => f === shim },
    );

  it('spawns cmd.exe with one pre-quoted command line, verbatim', async () => {
    const { spawn } = await plan();
    assert.equal(spawn.command, 'C:\\Windows\\system32\\cmd.exe');
    assert.deepEqual(spawn.args.slice(0, 3), ['/d', '/s', '/c']);
    assert.equal(spawn.args.length, 4, 'the command line is one argument');
    assert.equal(spawn.windowsVerbatimArguments, true);
  });

  it('every argument reaches the program as written; none starts another command', async () => {
    const { spawn } = await plan();
    // `/s /c "…"`: cmd.exe drops the outer quotes, parses the line, and runs the batch file.
    const line = spawn.args[3];
    assert.ok(line.startsWith('"') && line.endsWith('"'), line);
    const first = cmdPass(line.slice(1, -1));
    assert.equal(first.operator, undefined, `cmd.exe would run: ${first.operator}`);
    // The batch file passes %* (the text after its own name) on, and cmd.exe parses that once more.
    assert.ok(first.text.startsWith(`"${shim}" `), first.text);
    const second = cmdPass(first.text.slice(shim.length + 3));
    assert.equal(second.operator, undefined, `the batch file would run: ${second.operator}`);
    assert.deepEqual(parseArgv(second.text), HOSTILE);
  });

  it('the MCP SDK gets the shim itself: its cross-spawn quotes for cmd.exe the same way', async () => {
    const p = await plan();
    assert.equal(p.command, shim);
    assert.deepEqual(p.args, HOSTILE);
  });

  it('quotes a long run of backslashes in linear time', () => {
    const arg = `${'\\'.repeat(200_000)}x${'\\'.repeat(200_000)}`;
    const started = Date.now();
    const quoted = quoteCmdArgument(arg);
    assert.ok(Date.now() - started < 1000);
    assert.ok(quoted.endsWith(`${'\\'.repeat(400_000)}^^^"`));
  });

  it('refuses arguments cmd.exe cannot pass on (line breaks)', async () => {
    await assert.rejects(
      planStdioSpawn({ type: 'stdio', command: 'npx', args: ['a\nb'], env: {}, cwd: undefined }, { PATH: 'C:\\n', PATHEXT: '.CMD' }, 'server "x"', undefined, {
        platform: 'win32',
        isExecutableFile: (f) => f === 'C:\\n\\npx.cmd',
      }),
      /line break/,
    );
  });

  it('leaves other platforms and .exe commands alone', async () => {
    const exe = await planStdioSpawn(
      { type: 'stdio', command: 'node', args: ['a&b'], env: {}, cwd: undefined },
      { PATH: 'C:\\n', PATHEXT: '.EXE' },
      'x',
      undefined,
      { platform: 'win32', isExecutableFile: (f) => f === 'C:\\n\\node.exe' },
    );
    assert.deepEqual([exe.command, exe.args, exe.spawn], ['C:\\n\\node.exe', ['a&b'], { command: 'C:\\n\\node.exe', args: ['a&b'] }]);
  });
});
