/** The skills fixture server (test/fixtures/servers/skillsServer.ts) as a stdio launch. */
import * as path from 'node:path';
import type { Launch } from '../../../src/config/common/launchDefinition';
import { FIXTURES } from '../mcp/testHost';

export const SKILLS_FIXTURE = path.join(FIXTURES, 'skillsServer.js');

export function skillsLaunch(env: Record<string, string> = {}): Launch {
  return { type: 'stdio', command: 'node', args: [SKILLS_FIXTURE], env, cwd: undefined };
}
