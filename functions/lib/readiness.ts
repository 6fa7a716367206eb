/**
 * What this process still waits for before it can do its whole job, for `GET /api/health`
 * (docs/operations.md "Health"). A part that needs time to start (the renderer: Chromium
 * unpacking, launching, opening the warm page) says what it waits for with `waitFor`, and
 * `ready` when it can serve. A process that never registers a part (an AWS Lambda of another
 * feature) is ready as soon as its services answer.
 *
 * Plain module state: one registry per process, as a Lambda container or the local stack has.
 */

const waiting = new Map<string, string>();
const known = new Set<string>();

/**
 * Marks `part` as not ready and says why, in words a person reads on the health answer.
 * @param part short name, e.g. `renderer`
 * @param what what it waits for, e.g. `unpacking Chromium`
 */
export function waitFor(part: string, what: string): void {
  known.add(part);
  waiting.set(part, what);
}

/** Marks `part` as ready to serve. */
export function ready(part: string): void {
  known.add(part);
  waiting.delete(part);
}

/** Forgets `part` (the local stack's stop, tests). */
export function forget(part: string): void {
  known.delete(part);
  waiting.delete(part);
}

/**
 * The parts this process knows of and what each still waits for.
 * @returns `{ ready, parts: { [part]: { ready, waiting? } } }`; `ready` is true when no part waits
 */
export function readiness(): {
  ready: boolean;
  parts: Record<string, { ready: boolean; waiting?: string }>;
} {
  const parts: Record<string, { ready: boolean; waiting?: string }> = {};
  for (const part of known) {
    const what = waiting.get(part);
    parts[part] = what === undefined ? { ready: true } : { ready: false, waiting: what };
  }
  return { ready: waiting.size === 0, parts };
}
