/** Test helper shared by unit and integration suites that check which processes are left running. */
import * as fs from 'node:fs';

/** Whether a process runs (a zombie waiting for a non-reaping init counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return true;
  }
}
