import * as assert from 'node:assert/strict';
import { WEBVIEW_L10N_ELEMENT_ID, webviewL10nScript } from '../../../src/shared/common/webviewL10n';

describe('webviewL10nScript (the translations a webview page carries)', () => {
  it('is empty in English (no bundle, or an empty one)', () => {
    assert.equal(webviewL10nScript(undefined), '');
    assert.equal(webviewL10nScript({}), '');
  });

  it('is a JSON data block whose content parses back to the bundle', () => {
    const bundle = { Run: 'Ausführen', 'Server: {0}': 'Server: {0}', 'Don’t Run': 'Nicht ausführen' };
    const html = webviewL10nScript(bundle);
    const match = new RegExp(`^<script type="application/json" id="${WEBVIEW_L10N_ELEMENT_ID}">(.*)</script>$`, 's').exec(html);
    assert.ok(match, html);
    assert.deepEqual(JSON.parse(match[1]), bundle);
  });

  it('cannot end its element early or open markup, whatever a translation contains', () => {
    const bundle = { a: '</script><script>alert(1)</script>', b: '<!-- x & y -->', c: 'line\u2028separator' };
    const html = webviewL10nScript(bundle);
    const body = html.slice(html.indexOf('>') + 1, html.lastIndexOf('</script>'));
    assert.ok(!/[<>&\u2028]/.test(body), body);
    assert.deepEqual(JSON.parse(body), bundle);
  });
});
