import * as assert from 'node:assert/strict';
import { chooseOptions, installOptions, suggestedEntryName, type InstallOption } from '../../../src/gallery/common/installPlan';
import { readEntry, readServer, type RegistryServer } from '../../../src/gallery/common/registryTypes';
import { RECORDED_SERVERS } from '../../fixtures/registry/recordedServers';

/** A recorded server (latest version) by name. */
function recorded(name: string): RegistryServer {
  const raw = RECORDED_SERVERS.map(readEntry).find((e) => e?.server.name === name && e.official.isLatest);
  assert.ok(raw, name);
  return raw.server;
}

function server(fields: Record<string, unknown>): RegistryServer {
  return readServer({ name: 'io.github.test/demo', description: 'd', version: '1.0.0', ...fields })!;
}

function only(options: InstallOption[]): InstallOption {
  assert.equal(options.length, 1);
  return options[0];
}

describe('gallery: registry server → config entry', () => {
  it('npm: npx -y <id>@<version>; a secret env var becomes a password input, a default stays literal, an optional flag is left out', () => {
    const option = only(installOptions(recorded('io.github.example/weather')));
    assert.equal(option.unavailable, undefined);
    assert.equal(option.runtime, 'npx');
    assert.deepEqual(option.entry, {
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@example/weather-mcp@1.4.2'],
      env: { WEATHER_API_KEY: '${input:weather-WEATHER_API_KEY}', WEATHER_UNITS: 'metric' },
    });
    assert.deepEqual(option.inputs, [{ id: 'weather-WEATHER_API_KEY', type: 'promptString', description: 'OpenWeatherMap API key', password: true }]);
    assert.deepEqual(option.optional, ['--log-level (Logging level (debug, info, warn))']);
  });

  it('pypi: uvx <id>==<version>; a bare flag is kept, an optional parameter is not', () => {
    const option = only(installOptions(recorded('io.github.example/fetch')));
    assert.deepEqual(option.entry, { type: 'stdio', command: 'uvx', args: ['mcp-server-fetch==2025.4.7', '--ignore-robots-txt'] });
    assert.deepEqual(option.inputs, []);
    assert.deepEqual(option.optional, ['--user-agent (User-Agent header to send)']);
  });

  it('oci: docker run -i --rm <runtime args> -e NAME <image>; the variable is set on docker and passed on', () => {
    const option = only(installOptions(recorded('io.github.example/postgres')));
    assert.deepEqual(option.entry, {
      type: 'stdio',
      command: 'docker',
      args: ['run', '-i', '--rm', '--network', 'host', '-e', 'DATABASE_URL', 'docker.io/example/postgres-mcp:0.6.1'],
      env: { DATABASE_URL: '${input:postgres-DATABASE_URL}' },
    });
    assert.equal(option.inputs[0].password, true);
  });

  it('oci: an untagged identifier takes the version as its tag (entries before 2025-10-11)', () => {
    const option = only(
      installOptions(server({ packages: [{ registryType: 'oci', identifier: 'mcp/filesystem', version: '1.0.2', transport: { type: 'stdio' } }] })),
    );
    assert.deepEqual(option.entry?.args, ['run', '-i', '--rm', 'mcp/filesystem:1.0.2']);
    const digest = only(
      installOptions(server({ packages: [{ registryType: 'oci', identifier: 'ghcr.io/a/b@sha256:abc', version: '1', transport: { type: 'stdio' } }] })),
    );
    assert.deepEqual(digest.entry?.args, ['run', '-i', '--rm', 'ghcr.io/a/b@sha256:abc']);
  });

  it('nuget: dnx <id>@<version> --yes -- <package args>; a required value without default is asked for (not secret)', () => {
    const option = only(installOptions(recorded('io.github.joelverhagen/knapcode-samplemcpserver')));
    assert.deepEqual(option.entry, {
      type: 'stdio',
      command: 'dnx',
      args: ['Knapcode.SampleMcpServer@0.6.0', '--yes', '--', 'mcp', 'start'],
      env: { WEATHER_CHOICES: '${input:knapcode-samplemcpserver-WEATHER_CHOICES}' },
    });
    assert.deepEqual(option.inputs, [
      { id: 'knapcode-samplemcpserver-WEATHER_CHOICES', type: 'promptString', description: 'Comma separated list of weather descriptions' },
    ]);
  });

  it('remote streamable-http: type http, url, a header whose secret variable becomes a password input', () => {
    const option = only(installOptions(recorded('com.example/issues')));
    assert.deepEqual(option.entry, { type: 'http', url: 'https://mcp.example.com/issues', headers: { Authorization: 'Bearer ${input:issues-token}' } });
    assert.deepEqual(option.inputs, [{ id: 'issues-token', type: 'promptString', description: 'Example Tracker API token', password: true }]);
  });

  it('remote: a URL template variable is asked for; sse stays sse', () => {
    const tenant = only(installOptions(recorded('com.example/tenant-search')));
    assert.equal(tenant.entry?.url, 'https://${input:tenant-search-tenant}.search.example.com/mcp');
    assert.deepEqual(
      tenant.inputs.map((i) => [i.id, i.password]),
      [['tenant-search-tenant', undefined]],
    );
    const sse = installOptions(recorded('io.github.example/filesystem')).find((o) => o.kind === 'remote');
    assert.deepEqual(sse?.entry, { type: 'sse', url: 'https://files.example.com/sse' });
  });

  it('several packages: mcpb is skipped with a reason; a {variable} in a runtime argument is asked for; a required positional is asked for', () => {
    const options = installOptions(recorded('io.github.example/filesystem'));
    assert.deepEqual(
      options.map((o) => o.key),
      ['package:0', 'package:1', 'package:2', 'remote:0'],
    );
    assert.match(options[0].unavailable ?? '', /MCP bundles/);
    assert.deepEqual(options[1].entry?.args, [
      'run',
      '-i',
      '--rm',
      '--mount',
      'type=bind,src=${input:filesystem-source_path},dst=/project',
      'ghcr.io/example/filesystem-mcp:2.0.0',
      '/project',
    ]);
    assert.deepEqual(options[2].entry?.args, ['-y', '@example/filesystem-mcp@2.0.0', '${input:filesystem-allowed_dir}']);
    assert.equal(options[2].inputs[0].description, 'Directory the server may access');
  });

  it('chooses the first package this machine can run, and offers the remotes beside it', () => {
    const options = installOptions(recorded('io.github.example/filesystem'));
    const withDocker = chooseOptions(options, (r) => r === 'docker' || r === 'npx');
    assert.deepEqual(
      withDocker.choices.map((o) => o.key),
      ['package:1', 'remote:0'],
    );
    assert.deepEqual(
      withDocker.skipped.map((s) => s.option.key),
      ['package:0', 'package:2'],
    );
    const npxOnly = chooseOptions(options, (r) => r === 'npx');
    assert.deepEqual(
      npxOnly.choices.map((o) => o.key),
      ['package:2', 'remote:0'],
    );
    assert.match(npxOnly.skipped.find((s) => s.option.key === 'package:1')?.reason ?? '', /docker was not found on PATH/);
    const nothing = chooseOptions(options, () => false);
    assert.deepEqual(
      nothing.choices.map((o) => o.key),
      ['remote:0'],
    );
  });

  it('with no runtime and no remote, still offers the first package (the config can be written before the runtime is installed)', () => {
    const choice = chooseOptions(installOptions(recorded('io.github.example/weather')), () => false);
    assert.deepEqual(
      choice.choices.map((o) => o.key),
      ['package:0'],
    );
    assert.deepEqual(choice.skipped, []);
    const none = chooseOptions(installOptions(recorded('io.github.example/text-editor')), () => true);
    assert.deepEqual(none.choices, []);
    assert.match(none.skipped[0].reason, /MCP bundles/);
  });

  it('never writes a registry value that the config would read as a variable of this machine', () => {
    const option = only(installOptions(recorded('io.github.example/zz-hostile')));
    assert.equal(option.entry, undefined);
    assert.match(option.unavailable ?? '', /\$\{…\}/);
    const remote = only(
      installOptions(
        server({ remotes: [{ type: 'streamable-http', url: 'https://x.example/mcp', headers: [{ name: 'X-Key', value: '${input:other-server-token}' }] }] }),
      ),
    );
    assert.equal(remote.entry, undefined);
  });

  it('refuses package names and versions that a runtime would read as options', () => {
    for (const pkg of [
      { registryType: 'npm', identifier: '--call=rm -rf ~', version: '1.0.0' },
      { registryType: 'npm', identifier: 'ok', version: '-c' },
      { registryType: 'pypi', identifier: '--from=evil', version: '1' },
      { registryType: 'oci', identifier: '--privileged', version: '1' },
      { registryType: 'nuget', identifier: '-x', version: '1' },
    ]) {
      const option = only(installOptions(server({ packages: [{ ...pkg, transport: { type: 'stdio' } }] })));
      assert.equal(option.entry, undefined, JSON.stringify(pkg));
      assert.match(option.unavailable ?? '', /not a valid/);
    }
  });

  it('skips what it cannot run: unknown registries and transports, packages that serve HTTP themselves', () => {
    const options = installOptions(
      server({
        packages: [
          { registryType: 'cargo', identifier: 'mcp-x', version: '1', transport: { type: 'stdio' } },
          { registryType: 'npm', identifier: 'mcp-http', version: '1', transport: { type: 'streamable-http', url: 'http://localhost:{port}/mcp' } },
        ],
        remotes: [
          { type: 'websocket', url: 'wss://x' },
          { type: 'streamable-http', url: 'ftp://x' },
        ],
      }),
    );
    assert.match(options[0].unavailable ?? '', /"cargo" registry are not supported/);
    assert.match(options[1].unavailable ?? '', /on a port of its own/);
    assert.match(options[2].unavailable ?? '', /"websocket" is not supported/);
    assert.match(options[3].unavailable ?? '', /not an http\(s\) URL/);
  });

  it('runtime arguments come before the package; npx gets -y once; a foreign runtime hint is noted', () => {
    const option = only(
      installOptions(
        server({
          packages: [
            {
              registryType: 'npm',
              identifier: 'mcp-demo',
              version: '2.0.0',
              runtimeHint: 'bunx',
              transport: { type: 'stdio' },
              runtimeArguments: [
                { type: 'named', name: '--yes' },
                { type: 'named', name: '--registry', value: 'https://registry.npmjs.org' },
              ],
              packageArguments: [
                { type: 'named', name: '--port', default: '8080' },
                { type: 'positional', valueHint: 'root', default: '.' },
              ],
            },
          ],
        }),
      ),
    );
    assert.deepEqual(option.entry?.args, ['--yes', '--registry', 'https://registry.npmjs.org', 'mcp-demo@2.0.0', '--port', '8080', '.']);
    assert.match(option.notes[0], /suggests running it with bunx/);
  });

  it('inputs: choices make a pickString; a placeholder is shown; a value used twice is asked once; a fixed secret is asked with the value as default', () => {
    const option = only(
      installOptions(
        server({
          packages: [
            {
              registryType: 'npm',
              identifier: 'mcp-demo',
              version: '1.0.0',
              transport: { type: 'stdio' },
              packageArguments: [
                { type: 'named', name: '--mode', isRequired: true, choices: ['fast', 'safe'] },
                { type: 'named', name: '--a', value: '{region}', variables: { region: { description: 'Region', placeholder: 'eu-west-1' } } },
                { type: 'named', name: '--b', value: '{region}', variables: { region: { description: 'Region', placeholder: 'eu-west-1' } } },
              ],
              environmentVariables: [{ name: 'SHARED_SECRET', value: 'published-but-secret', isSecret: true }],
            },
          ],
        }),
      ),
    );
    assert.deepEqual(option.entry?.args, [
      '-y',
      'mcp-demo@1.0.0',
      '--mode',
      '${input:demo-mode}',
      '--a',
      '${input:demo-region}',
      '--b',
      '${input:demo-region}',
    ]);
    assert.deepEqual(option.inputs, [
      { id: 'demo-mode', type: 'pickString', description: '--mode', options: ['fast', 'safe'] },
      { id: 'demo-region', type: 'promptString', description: 'Region — e.g. eu-west-1' },
      { id: 'demo-SHARED_SECRET', type: 'promptString', description: 'SHARED_SECRET', default: 'published-but-secret', password: true },
    ]);
    assert.equal(option.entry?.env?.SHARED_SECRET, '${input:demo-SHARED_SECRET}');
  });

  it('a header marked secret makes its variables secret even when they are not marked', () => {
    const option = only(
      installOptions(
        server({
          remotes: [
            {
              type: 'streamable-http',
              url: 'https://x.example/mcp',
              headers: [{ name: 'Authorization', value: 'Token {key}', isSecret: true, variables: { key: { isRequired: true } } }],
            },
          ],
        }),
      ),
    );
    assert.equal(option.entry?.headers?.Authorization, 'Token ${input:demo-key}');
    assert.equal(option.inputs[0].password, true);
  });

  it('suggests entry names from the registry name', () => {
    assert.equal(suggestedEntryName(recorded('io.github.example/weather')), 'weather');
    assert.equal(suggestedEntryName(server({ name: 'io.github.x/mcp-server-git' })), 'git');
    assert.equal(suggestedEntryName(server({ name: 'com.example/notion-mcp' })), 'notion');
  });
});
