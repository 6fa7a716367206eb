/**
 * Hostile HTTP requests for the route table (test/integration/fuzz.test.ts): fast-check
 * arbitraries derived from the route's path (`{id}` segments), its zod body and query schemas
 * (through their JSON Schema, `z.toJSONSchema`), and a catalogue of hostile values: over-long
 * ids, slashes, percent-encodings, unicode and control characters, wrong JSON types, huge
 * numbers, deep objects, missing and extra fields, wrong content types, malformed JSON.
 */
import fc from 'fast-check';
import { z, type ZodType } from 'zod';
import type { Route } from '#shared/routes.ts';

/**
 * The longest path with query sent, bytes: CloudFront refuses longer URLs (8,192 bytes) before
 * they reach the API, and Node's HTTP server refuses request heads past 16 KiB.
 */
export const MAX_URL_BYTES = 8192;

/** One request to send: the path and query already encoded, the body as bytes on the wire. */
export interface FuzzRequest {
  method: Route['method'];
  /** Path with its query string, e.g. `/api/pic-snippet/a%2Fb?page=-1`. */
  path: string;
  /** `content-type` to send, or undefined for none. */
  contentType?: string;
  body?: string;
  /** How the caller authenticates: its session, none, a bogus Bearer token, no CSRF header. */
  auth: 'session' | 'anonymous' | 'bogus-bearer' | 'no-csrf';
  /** What was hostile about it, for the report (`id:long`, `body:deep`, …). */
  kinds: string[];
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
};

/** The JSON Schema of a zod schema's input, or undefined when there is none. */
export function jsonSchemaOf(schema: ZodType | undefined): JsonSchema | undefined {
  if (!schema) return undefined;
  return z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as JsonSchema;
}

/** Builds a nested JSON value `depth` levels deep: `{"a":{"a":…}}` or `[[…]]`. */
export function deepJson(depth: number, kind: 'object' | 'array'): string {
  return kind === 'object'
    ? '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
    : '['.repeat(depth) + ']'.repeat(depth);
}

/** Strings that have broken parsers, keys and templates elsewhere. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\u0000\u0001\u001f\u007f',
  '\r\n\r\nX-Injected: 1',
  '__proto__',
  'constructor',
  'prototype',
  'null',
  'undefined',
  'NaN',
  '1e309',
  '-1',
  '0x10',
  '../../etc/passwd',
  '..\\..\\windows',
  '{{first_name}}',
  '*|FNAME|*',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '${jndi:ldap://x}',
  '%00',
  '%s%s%s%n',
  '\u202e\u202d\u200b\u200f\ufeff',
  'Z\u0351\u0358\u0361a\u0336\u035fl\u0315g\u035co',
  '😀👩‍👩‍👧‍👦🏳️‍🌈',
  '李伟 مرحبا שלום',
  'ﬁ𝕏𝔸',
  '\ud800',
  '\udfff\ud800',
  'javascript:alert(1)',
  'http://169.254.169.254/latest/meta-data/',
  'x'.repeat(256),
  'x'.repeat(1500),
];

/** Any string, including lone surrogates and control characters. */
const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(...NASTY_STRINGS),
  fc.integer({ min: 1000, max: 120_000 }).map((n) => 'y'.repeat(n)),
);

/** A JSON value of the wrong kind for almost any field. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53 + 1, -(2 ** 63), 1e308, -1e308, 5e-324),
  anyString,
  fc.constantFrom([], {}, [null], [[]], { __proto__: { admin: true } }, { constructor: 1 }),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
  fc.dictionary(anyString, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 5 }),
  fc.integer({ min: 20, max: 200 }).map((d) => JSON.parse(deepJson(d, 'object')) as unknown),
);

const safeRegex = (pattern: string): RegExp | undefined => {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
};

/**
 * A value that mostly fits a JSON Schema (so requests reach the handler's own checks), with
 * `ids` used for id-like fields.
 */
export function fromSchema(
  schema: JsonSchema,
  ids: readonly string[],
  name = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0)
    return fc.oneof(...alternatives.map((s) => fromSchema(s, ids, name, depth + 1)));
  if (schema.allOf && schema.allOf.length > 0)
    return fromSchema(schema.allOf[0]!, ids, name, depth);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const entries = Object.entries(schema.properties ?? {});
      if (entries.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue());
      const required = new Set(schema.required ?? []);
      return fc.record(
        Object.fromEntries(entries.map(([k, s]) => [k, fromSchema(s, ids, k, depth + 1)])),
        { requiredKeys: entries.map(([k]) => k).filter((k) => required.has(k)) },
      );
    }
    case 'array':
      return fc.array(
        schema.items ? fromSchema(schema.items, ids, name, depth + 1) : fc.jsonValue(),
        {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? 4, 4),
        },
      );
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum ?? -1000) + 1;
      const max = schema.maximum ?? (schema.exclusiveMaximum ?? 100_000) - 1;
      return type === 'integer'
        ? fc.integer({ min: Math.ceil(min), max: Math.max(Math.ceil(min), Math.floor(max)) })
        : fc.double({ min, max: Math.max(min, max), noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'string': {
      if (ids.length > 0 && /(^id$|Id$|_id$|uuid)/i.test(name)) return fc.constantFrom(...ids);
      if (schema.format === 'email') return fc.emailAddress();
      const regex = schema.pattern ? safeRegex(schema.pattern) : undefined;
      if (regex) {
        try {
          return fc.stringMatching(regex, { maxLength: schema.maxLength ?? 40 });
        } catch {
          // A pattern fast-check cannot generate from: plain strings below.
        }
      }
      return fc.string({
        minLength: schema.minLength ?? 0,
        maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? 40, 40)),
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * A body value: one that fits the schema, or that value broken in one place (a required field
 * missing, an extra field, a field of the wrong type), or a hostile value as the whole body.
 */
function bodyValue(schema: JsonSchema | undefined, ids: readonly string[]) {
  const fitting = schema ? fromSchema(schema, ids) : fc.jsonValue({ maxDepth: 3 });
  const broken = fc
    .tuple(fitting, fc.nat(), hostileValue, fc.constantFrom('drop', 'extra', 'wrong-type'))
    .map(([value, pick, wrong, how]) => {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return { value: wrong, how };
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      const keys = Object.keys(schema?.properties ?? copy);
      const key = keys.length > 0 ? keys[pick % keys.length]! : 'field';
      if (how === 'drop') delete copy[key];
      else if (how === 'extra') copy[`extra_${pick % 7}`] = wrong;
      else copy[key] = wrong;
      return { value: copy as unknown, how };
    });
  return fc.oneof(
    { weight: 3, arbitrary: fitting.map((value) => ({ value, how: 'fitting' })) },
    { weight: 5, arbitrary: broken },
    { weight: 2, arbitrary: hostileValue.map((value) => ({ value, how: 'hostile-whole' })) },
  );
}

/** Bodies whose bytes are not the JSON they claim, or JSON that no parser should love. */
const RAW_BODIES = [
  '{',
  '{"a":',
  "{'a':1}",
  '[1,2',
  'nul',
  '{"a":1}garbage',
  '\ufeff{"a":1}',
  '{"version":1e400,"id":1e400}',
  '{"page":-0,"n":1e-400}',
  '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}',
  '{"a":"\\ud800"}',
  '{"a":1,"a":2}',
  '"just a string"',
  '12345678901234567890123456789',
  'true',
  'null',
  '[]',
  '\u0000\u0001\u0002',
];

/** The body on the wire and its content type. */
function wireBody(schema: JsonSchema | undefined, ids: readonly string[]) {
  const json = bodyValue(schema, ids).map(({ value, how }) => ({
    contentType: 'application/json' as string | undefined,
    body: JSON.stringify(value) ?? 'null',
    kind: `body:${how}`,
  }));
  const raw = fc.oneof(
    fc.constantFrom(...RAW_BODIES),
    fc.string({ unit: 'binary', maxLength: 64 }),
    fc
      .tuple(
        fc.constantFrom<'object' | 'array'>('object', 'array'),
        fc.integer({ min: 30, max: 100_000 }),
      )
      .map(([kind, depth]) => deepJson(depth, kind)),
  );
  const malformed = raw.map((body) => ({
    contentType: 'application/json' as string | undefined,
    body,
    kind: 'body:malformed',
  }));
  const wrongType = fc
    .tuple(
      json,
      fc.constantFrom(
        undefined,
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=xyz',
        'multipart/form-data',
        'application/xml',
        'application/json; charset=utf-16',
        'application/octet-stream',
        'image/png',
        'application/json, text/html',
      ),
      fc.boolean(),
    )
    .map(([j, contentType, formLike]) => ({
      contentType,
      body: formLike && contentType?.includes('form') ? 'a=1&b=%FF&c[]=x&&=' : j.body,
      kind: `content-type:${contentType ?? 'none'}`,
    }));
  const empty = fc.constant({ contentType: 'application/json', body: '', kind: 'body:empty' });
  return fc.oneof(
    { weight: 10, arbitrary: json },
    { weight: 3, arbitrary: malformed },
    { weight: 3, arbitrary: wrongType },
    { weight: 1, arbitrary: empty },
  );
}

/** A path segment for `{name}`: a real id, or a hostile one, percent-encoded or raw. */
function segment(ids: readonly string[]) {
  const encoded = (kind: string, arb: fc.Arbitrary<string>) =>
    arb.map((s) => ({ segment: encodeURIComponent(s), kind }));
  return fc.oneof(
    {
      weight: 4,
      arbitrary:
        ids.length > 0
          ? encoded('id:real', fc.constantFrom(...ids))
          : encoded('id:plain', fc.uuid()),
    },
    {
      weight: 2,
      arbitrary: encoded(
        'id:long',
        fc.integer({ min: 257, max: 3000 }).map((n) => 'a'.repeat(n)),
      ),
    },
    {
      weight: 1,
      arbitrary: encoded(
        'id:long-unicode',
        fc.string({ unit: 'grapheme', minLength: 200, maxLength: 300 }),
      ),
    },
    {
      weight: 2,
      arbitrary: encoded(
        'id:unicode',
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
      ),
    },
    {
      weight: 2,
      arbitrary: encoded(
        'id:control',
        fc.string({
          unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)),
          minLength: 1,
          maxLength: 8,
        }),
      ),
    },
    {
      weight: 2,
      arbitrary: encoded(
        'id:nasty',
        fc.constantFrom(
          ...NASTY_STRINGS.filter(
            (s) => s !== '' && !s.includes('\ud800') && !s.startsWith('\udfff'),
          ),
        ),
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          'a%2Fb',
          'a/b',
          '..%2F..%2Fetc',
          '%2E%2E',
          '.',
          '..',
          '%00',
          '%FF',
          '%E0%A4%A',
          '%',
          '%25',
          '%252F',
          '%C0%AE%C0%AE',
          'a%20b',
          '%u0041',
          '%F0%9F%98',
          'a;b=c',
          'a?b',
          'a#b',
        )
        .map((s) => ({ segment: s, kind: 'id:raw-escape' })),
    },
  );
}

/** A query string: from the route's query schema (fitting or broken) or hostile keys and values. */
function queryString(schema: JsonSchema | undefined, ids: readonly string[]) {
  const fitting = bodyValue(schema, ids).map(({ value }) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return '';
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      params.append(k, typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
    }
    return params.toString();
  });
  const hostile = fc.constantFrom(
    'page=1e309',
    'page=-1',
    'page=NaN',
    'page=0x10',
    'page[]=1&page[]=2',
    'page=1&page=2',
    'sortby=__proto__',
    '__proto__[x]=1',
    'a=%FF%FE',
    'a=%00',
    `q=${'z'.repeat(4000)}`,
    '&&&=&',
    '%=%',
  );
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    { weight: 4, arbitrary: fitting },
    { weight: 2, arbitrary: hostile },
  );
}

/** The render route's tail (`{proxy+}`): public ids real and hostile, formats, parameters. */
function renderTail(ids: readonly string[]) {
  return fc
    .tuple(
      segment(ids),
      fc.constantFrom(
        '',
        '.jpg',
        '.png',
        '.pdf',
        '.gif',
        '/v1',
        '/v999999999999',
        '/pdf',
        '/v1/pdf.pdf',
        '/x/y/z',
      ),
    )
    .map(([s, suffix]) => ({ tail: `${s.segment}${suffix}`, kind: s.kind }));
}

/**
 * The arbitrary of hostile requests for one route.
 * @param route the route table's entry.
 * @param schemas the route's zod body and query schemas, when it has them.
 * @param ids real ids (designs, teams, users, tokens, …) to put in paths and id fields.
 */
export function requestArbitrary(
  route: Route,
  schemas: { body?: ZodType | undefined; query?: ZodType | undefined },
  ids: readonly string[],
): fc.Arbitrary<FuzzRequest> {
  const bodySchema = jsonSchemaOf(schemas.body);
  const querySchema = jsonSchemaOf(schemas.query);
  const names = [...route.path.matchAll(/\{(\w+)\+?\}/g)].map((m) => m[1]!);
  const segments =
    route.feature === 'render'
      ? renderTail(ids).map((t) => [{ segment: t.tail, kind: t.kind }])
      : fc.tuple(...names.map(() => segment(ids)));
  const auth = fc.oneof(
    { weight: 17, arbitrary: fc.constant<FuzzRequest['auth']>('session') },
    {
      weight: 1,
      arbitrary: fc.constantFrom<FuzzRequest['auth']>('anonymous', 'bogus-bearer', 'no-csrf'),
    },
  );
  const body =
    route.method === 'GET' ? fc.constant(undefined) : wireBody(bodySchema ?? querySchema, ids);
  return fc
    .tuple(segments, queryString(querySchema, ids), body, auth)
    .map(([parts, query, wire, who]) => {
      let i = 0;
      const path = route.path.replace(/\{\w+\+?\}/g, () => parts[i++]!.segment);
      const room = MAX_URL_BYTES - path.length - 1;
      return {
        method: route.method,
        path: query && room > 0 ? `${path}?${query.slice(0, room)}` : path,
        ...(wire ? { contentType: wire.contentType, body: wire.body } : {}),
        auth: who,
        kinds: [
          ...parts.map((p) => p.kind),
          ...(wire ? [wire.kind] : []),
          ...(query ? ['query'] : []),
          `auth:${who}`,
        ],
      } as FuzzRequest;
    });
}
