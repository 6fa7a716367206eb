/**
 * Field paths into a web API's JSON answer (docs/data-sources.md "Field paths"): a small, safe
 * subset of JSONPath read by a single left-to-right pass, never by evaluating anything.
 *
 * - `name`, `a.b.c`: object members (any characters but `.`, `[`, `]` and spaces);
 * - `items[0]`, `[2]`: array elements by index (0-based, at most 6 digits);
 * - `["odd key"]`: a member whose name has other characters (`\"` and `\\` escaped);
 * - an optional leading `$` or `$.` (JSONPath habit) is ignored; `` or `$` is the answer itself.
 *
 * At most {@link MAX_PATH_CHARS} characters and {@link MAX_PATH_STEPS} steps. Only an object's
 * own members are read (`__proto__`, `constructor` are plain names that an answer may or may not
 * have). Tests: test/unit/data-path.test.ts.
 */

/** The longest path, characters (docs/data-sources.md "Limits"). */
export const MAX_PATH_CHARS = 256;
/** The most steps a path has (docs/data-sources.md "Limits"). */
export const MAX_PATH_STEPS = 32;

/** One step: an object member by name, or an array element by index. */
export type PathStep = { name: string } | { index: number };

/** A path that cannot be read; `message` says where, for the form field. */
export class PathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PathError';
  }
}

const isNameChar = (c: string) => c !== '.' && c !== '[' && c !== ']' && c.trim() !== '';

/**
 * Reads a path into steps, in one pass over its characters.
 * @throws PathError naming the position of the first character that does not fit, or when the
 *   path is longer than {@link MAX_PATH_CHARS} or has more than {@link MAX_PATH_STEPS} steps.
 */
export function parsePath(path: string): PathStep[] {
  if (path.length > MAX_PATH_CHARS)
    throw new PathError(`A path has at most ${MAX_PATH_CHARS} characters.`);
  let i = 0;
  if (path.startsWith('$')) i = path[1] === '.' ? 2 : 1;
  const steps: PathStep[] = [];
  const at = (what: string) =>
    new PathError(`${what} at character ${i + 1} of "${path}". Write paths like items[0].name.`);
  let first = true;
  while (i < path.length) {
    if (steps.length >= MAX_PATH_STEPS)
      throw new PathError(`A path has at most ${MAX_PATH_STEPS} steps.`);
    const c = path[i]!;
    if (c === '[') {
      i++;
      if (path[i] === '"') {
        i++;
        let name = '';
        for (;;) {
          if (i >= path.length) throw at('An unclosed quote');
          const q = path[i]!;
          if (q === '\\') {
            const next = path[i + 1];
            if (next !== '"' && next !== '\\') throw at('An unknown escape');
            name += next;
            i += 2;
          } else if (q === '"') {
            i++;
            break;
          } else {
            name += q;
            i++;
          }
        }
        steps.push({ name });
      } else {
        const start = i;
        while (i < path.length && i - start <= 6 && path[i]! >= '0' && path[i]! <= '9') i++;
        if (i === start || i - start > 6) throw at('An index of 1 to 6 digits is expected');
        steps.push({ index: Number(path.slice(start, i)) });
      }
      if (path[i] !== ']') throw at('A closing ] is expected');
      i++;
    } else {
      if (!first) {
        if (c !== '.') throw at('A . or [ is expected');
        i++;
      }
      const start = i;
      while (i < path.length && isNameChar(path[i]!)) i++;
      if (i === start) throw at('A name is expected');
      steps.push({ name: path.slice(start, i) });
    }
    first = false;
  }
  return steps;
}

/**
 * The value a path points at, as text: a string as it is, a number or boolean as JSON writes
 * it; `undefined` for a missing member, an index past the end, `null`, an object or an array
 * (nothing to show). Only own members are followed.
 */
export function readPath(value: unknown, steps: readonly PathStep[]): string | undefined {
  let here: unknown = value;
  for (const step of steps) {
    if ('index' in step) {
      if (!Array.isArray(here) || step.index >= here.length) return undefined;
      here = here[step.index];
    } else {
      if (typeof here !== 'object' || here === null || Array.isArray(here)) return undefined;
      if (!Object.hasOwn(here, step.name)) return undefined;
      here = (here as Record<string, unknown>)[step.name];
    }
  }
  if (typeof here === 'string') return here;
  if (typeof here === 'number' && Number.isFinite(here)) return String(here);
  if (typeof here === 'boolean') return String(here);
  return undefined;
}
