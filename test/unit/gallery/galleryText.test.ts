import * as assert from 'node:assert/strict';
import { entryTexts, plainForQuickPick } from '../../../src/gallery/common/galleryText';
import { readEntry } from '../../../src/gallery/common/registryTypes';
import { parseInputsValue } from '../../../src/config/common/serverConfig';
import { RECORDED_SERVERS } from '../../fixtures/registry/recordedServers';

const entry = (name: string) => RECORDED_SERVERS.map(readEntry).find((e) => e?.server.name === name && e.official.isLatest)!;

describe('gallery: registry text in the picker', () => {
  it('shows title, version, transports and description; deprecation with its message', () => {
    assert.deepEqual(entryTexts(entry('io.github.example/weather')), {
      label: 'Weather',
      description: 'v1.4.2 · stdio (npm)',
      detail: 'Forecasts and current conditions from OpenWeatherMap (io.github.example/weather)',
      deprecated: false,
    });
    const old = entryTexts(entry('io.github.example/old-weather'));
    assert.equal(old.label, 'old-weather');
    assert.equal(old.deprecated, true);
    assert.match(old.detail, /^Deprecated: Use io\.github\.example\/weather instead\. Legacy weather server/);
    assert.equal(entryTexts(entry('io.github.example/filesystem')).description, 'v2.0.0 · stdio (mcpb), stdio (oci), stdio (npm), sse');
  });

  it('draws no icon a registry entry names and reveals direction overrides', () => {
    const hostile = entryTexts(entry('io.github.example/zz-hostile'));
    assert.equal(hostile.label, '$\u200A(alert) Totally Official');
    assert.ok(hostile.detail.includes('\\u202Eexe.yrev'));
    assert.equal(plainForQuickPick('a\n\nb  c'), 'a b c');
    assert.equal(plainForQuickPick('x'.repeat(300)).length, 200);
  });
});

describe('mcpWorkbench.inputs (the inputs of the servers setting)', () => {
  it('reads input definitions from a plain value and reports bad ones', () => {
    const { inputs, problems } = parseInputsValue([
      { id: 'k', type: 'promptString', password: true },
      { type: 'promptString' },
      { id: 'p', type: 'pickString', options: ['a', 'b'] },
    ]);
    assert.deepEqual(
      inputs.map((i) => [i.id, i.type, i.password]),
      [
        ['k', 'promptString', true],
        ['p', 'pickString', false],
      ],
    );
    assert.equal(problems.length, 1);
    assert.deepEqual(parseInputsValue(undefined), { inputs: [], problems: [] });
    assert.equal(parseInputsValue({ not: 'a list' }).problems.length, 1);
  });
});
