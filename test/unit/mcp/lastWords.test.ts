/**
 * Which stderr line a failure quotes (issue 29). The real Node cases run a real process in
 * failureMessages.test.ts; these are the shapes of other runtimes' output, as they print it.
 */
import * as assert from 'node:assert/strict';
import { lastWords } from '../../../src/mcp/process/lastWords';

describe('the stderr line a failure quotes', () => {
  it('Node: the error line, not the banner, the stack or the caret', () => {
    assert.equal(
      lastWords([
        '/srv/server.js:2',
        '  broken: (;',
        '          ^',
        '',
        "SyntaxError: Unexpected token ';'",
        '    at wrapSafe (node:internal/modules/cjs/loader:1378:20)',
        '    at Module._compile (node:internal/modules/cjs/loader:1428:20)',
        '',
        'Node.js v20.20.2',
      ]),
      "SyntaxError: Unexpected token ';'",
    );
    assert.equal(
      lastWords([
        'node:internal/modules/esm/resolve:854',
        '  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);',
        '        ^',
        '',
        "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from /srv/index.mjs",
        '    at packageResolve (node:internal/modules/esm/resolve:854:9)',
        '',
        'Node.js v22.1.0',
      ]),
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from /srv/index.mjs",
    );
  });

  it('Python: the exception after the traceback', () => {
    assert.equal(
      lastWords([
        'Traceback (most recent call last):',
        '  File "/srv/server.py", line 3, in <module>',
        '    import mcp_helpers',
        "ModuleNotFoundError: No module named 'mcp_helpers'",
      ]),
      "ModuleNotFoundError: No module named 'mcp_helpers'",
    );
    assert.equal(lastWords(['  File "/srv/server.py", line 4', '    def f(:', '          ^', 'SyntaxError: invalid syntax']), 'SyntaxError: invalid syntax');
  });

  it('other runtimes: error:, panic:, Java exceptions', () => {
    assert.equal(
      lastWords(['Compiling…', 'error[E0425]: cannot find value `x` in this scope', '  --> src/main.rs:2:5']),
      'error[E0425]: cannot find value `x` in this scope',
    );
    assert.equal(
      lastWords(['starting', 'panic: runtime error: index out of range [3] with length 3', '', 'goroutine 1 [running]:', 'main.main()']),
      'panic: runtime error: index out of range [3] with length 3',
    );
    assert.equal(
      lastWords(['Exception in thread "main" java.lang.IllegalStateException: no config', '\tat Main.main(Main.java:3)']),
      'Exception in thread "main" java.lang.IllegalStateException: no config',
    );
  });

  it('V8 aborts: the failed check (a debugger pause), the heap limit; never a native stack frame', () => {
    // As Node 20.20.2 printed it in this project's debug tests (nodejs/node#57606).
    assert.equal(
      lastWords([
        'Debugger attached.',
        '',
        '',
        '#',
        '# Fatal error in , line 0',
        '# Check failed: needs_context && current_scope_ == closure_scope_ && current_scope_->is_function_scope() && !function_.is_null() implies function_->context() != *context_.',
        '#',
        '#',
        '#',
        '#FailureMessage Object: 0x7ffea433ae30',
        '----- Native stack trace -----',
        '',
        ' 1: 0x9c24a1  [/usr/bin/node]',
        ' 2: 0x275afc3 V8_Fatal(char const*, ...) [/usr/bin/node]',
      ]),
      'Check failed: needs_context && current_scope_ == closure_scope_ && current_scope_->is_function_scope() && !function_.is_null() implies function_->context() != *context_.',
    );
    assert.equal(
      lastWords(['#', '# Fatal error in ../deps/v8/src/heap.cc, line 12', '#', ' 1: 0x9c24a1  [/usr/bin/node]']),
      'Fatal error in ../deps/v8/src/heap.cc, line 12',
    );
    assert.equal(
      lastWords([
        '<--- Last few GCs --->',
        '[123:0x5]    2000 ms: Mark-Compact 2040.1 (2081.5) -> 2039.8 (2082.0) MB',
        '',
        'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
        '----- Native stack trace -----',
        '',
        ' 1: 0xb8d0a3 node::OOMErrorHandler(char const*, v8::OOMDetails const&) [node]',
      ]),
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
    );
  });

  it('without an error line: the last line that says something; clipped; nothing when empty', () => {
    assert.equal(lastWords(['fixture stdio server ready', 'fixture: exiting as asked']), 'fixture: exiting as asked');
    assert.equal(lastWords(['listening', '    at somewhere (x.js:1:1)', 'Node.js v20.20.2']), 'listening');
    assert.equal(lastWords(['x'.repeat(300)]), `${'x'.repeat(200)}…`);
    assert.equal(lastWords(['', '  ']), undefined);
    assert.equal(lastWords([]), undefined);
  });
});
