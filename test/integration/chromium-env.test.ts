/**
 * Chromium gets no secrets (docs/operations.md "Chromium's environment"): the warm render
 * browser of the local stack is launched while this process holds AWS credentials and a
 * session secret, and no Chromium process (browser, renderer, GPU, utility) has them in its
 * environment (`/proc/{pid}/environ`). Mutation check (run): with `env: chromiumEnv()` replaced by
 * `process.env` in `launchChromium`, this test fails on `AWS_SECRET_ACCESS_KEY`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useLocalStack } from '../support/stack.ts';

// Set before the stack starts; DynamoDB Local and s3rver accept any credentials.
const SECRETS = {
  AWS_ACCESS_KEY_ID: 'AKIATESTCHROMIUMENV1',
  AWS_SECRET_ACCESS_KEY: 'chromium-env-secret-key-value',
  AWS_SESSION_TOKEN: 'chromium-env-session-token-value',
  PICSNIPPETS_TEST_SECRET: 'chromium-env-other-secret',
};
Object.assign(process.env, SECRETS);

const stack = useLocalStack();

/** Every descendant of `pid`, from `ps`. */
function descendants(pid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [child, ppid] of rows) {
      if (ppid === parent && !found.includes(child)) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

describe("Chromium's environment", () => {
  it('holds no AWS credentials or other secrets of the process', async () => {
    expect(stack().url).toBeTruthy();
    const { getBrowser } = await import('#functions/render/browser.ts');
    const browser = await getBrowser();
    const root = browser.process()?.pid;
    expect(root).toBeGreaterThan(0);
    const pids = [root!, ...descendants(root!)];
    // The render browser runs `--single-process` (@sparticuz/chromium's flags); any helper
    // processes it starts are checked too.
    expect(pids.length).toBeGreaterThanOrEqual(1);
    let read = 0;
    for (const pid of pids) {
      let environ: string;
      try {
        environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
      } catch {
        continue; // exited meanwhile
      }
      read += 1;
      const names = environ.split('\0').map((kv) => kv.split('=')[0]);
      expect(names.filter((n) => n?.startsWith('AWS_'))).toEqual([]);
      for (const value of Object.values(SECRETS)) expect(environ).not.toContain(value);
    }
    expect(read).toBeGreaterThan(0);
    // This process does hold them, so the check above is not vacuous.
    expect(process.env.AWS_SECRET_ACCESS_KEY).toBe(SECRETS.AWS_SECRET_ACCESS_KEY);
  });
});
