/**
 * Live content at open time in the synthesised stack: polls (docs/polls.md "In AWS"), the
 * weather (docs/weather.md "In AWS") and live web crops (docs/web-crops.md "In AWS"). Each case
 * names a piece the feature needs in AWS and fails without it: the routes and where they go, the
 * edge's handling of the vote link and the vote, the viewer's place reaching the render, the
 * weather provider online, the screenshot function apart and shared only as needed, the
 * `poll.voted` webhook's queue, and the table writes kept to the function that votes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ROUTES, routeKey } from '#shared/routes.ts';
import { functionGrants } from './permissions.ts';
import { synthesise, type Resources } from './synth.ts';

const { resources, remove } = synthesise();
afterAll(remove);

const ofType = (type: string) =>
  Object.entries(resources).filter(([, r]) => r.Type === type) as Array<
    [string, Resources[string]]
  >;

/** The one resource of `type` (whose logical id starts with `prefix`, when given). */
const only = (type: string, prefix = ''): Resources[string] => {
  const found = ofType(type).filter(([id]) => id.startsWith(prefix));
  expect(found, `${type} ${prefix}`).toHaveLength(1);
  return found[0]![1];
};

/** Each Lambda's logical id and environment, by its `FEATURE`. */
const functions = new Map(
  ofType('AWS::Lambda::Function').flatMap(([id, fn]) => {
    const env = (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)
      ?.Variables;
    return typeof env?.FEATURE === 'string' ? [[env.FEATURE, { id, fn, env }] as const] : [];
  }),
);
const envOf = (feature: string): Record<string, unknown> => {
  const found = functions.get(feature);
  expect(found, feature).toBeDefined();
  return found!.env;
};
const grants = functionGrants(resources);

interface Behavior {
  PathPattern?: string;
  TargetOriginId: string;
  AllowedMethods: string[];
  CachePolicyId: unknown;
  OriginRequestPolicyId: unknown;
}
const distribution = () => {
  return only('AWS::CloudFront::Distribution').Properties.DistributionConfig as {
    CacheBehaviors: Behavior[];
    DefaultCacheBehavior: Behavior;
  };
};
const behavior = (path: string): Behavior => {
  const found = distribution().CacheBehaviors.find((b) => b.PathPattern === path);
  expect(found, path).toBeDefined();
  return found!;
};

/** The default behaviour's router (a CloudFront Function), run as CloudFront runs it. */
function router(): (method: string, uri: string, accept: string) => 'api' | 'spa' {
  const fns = ofType('AWS::CloudFront::Function').filter(([, f]) =>
    String(f.Properties.FunctionCode).includes('selectRequestOriginById'),
  );
  expect(fns).toHaveLength(1);
  const body = String(fns[0]![1].Properties.FunctionCode).replace(
    /^import cf from 'cloudfront';$/m,
    '',
  );
  let selected = false;
  const handler = new Function('cf', `${body}\nreturn handler;`)({
    selectRequestOriginById: () => {
      selected = true;
    },
  }) as (event: object) => unknown;
  return (method, uri, accept) => {
    selected = false;
    handler({ request: { method, uri, headers: { accept: { value: accept } }, querystring: {} } });
    return selected ? 'api' : 'spa';
  };
}

describe('polls in AWS (docs/polls.md "In AWS")', () => {
  it('routes the ballot, the vote and the team’s votes to the designs function', () => {
    const keys = new Set(
      ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey as string),
    );
    for (const key of [
      'GET /api/polls/ballot',
      'POST /api/polls/vote',
      'GET /api/pic-snippet/{id}/poll/votes',
    ]) {
      expect(keys, key).toContain(key);
      expect(ROUTES.find((r) => routeKey(r) === key)?.feature, key).toBe('designs');
    }
  });

  it('sends an option link’s GET to the render function, uncached, and never a POST', () => {
    const l = behavior('/l/*');
    expect(l.TargetOriginId).toBe(behavior('/r/*').TargetOriginId);
    expect(l.AllowedMethods).toEqual(['GET', 'HEAD']);
  });

  it('serves the vote page from the SPA and the vote’s POST from the API', () => {
    const goes = router();
    expect(goes('GET', '/poll', 'text/html,application/xhtml+xml')).toBe('spa');
    expect(goes('POST', '/api/polls/vote', 'application/json')).toBe('api');
    expect(goes('GET', '/api/polls/ballot', 'application/json')).toBe('api');
  });

  it('counts votes per address at the edge before the function’s own allowance', () => {
    const rules = only('AWS::WAFv2::WebACL').Properties.Rules as Array<{
      Name: string;
      Action?: unknown;
      Statement: { RateBasedStatement?: { ScopeDownStatement: unknown } };
    }>;
    const rule = rules.find((r) => r.Name === 'SensitiveRatePerIp')!;
    expect(rule.Action).toEqual({ Block: { CustomResponse: { ResponseCode: 429 } } });
    expect(JSON.stringify(rule.Statement.RateBasedStatement!.ScopeDownStatement)).toContain(
      '"PositionalConstraint":"EXACTLY","SearchString":"/api/polls/vote"',
    );
  });

  it('queues the poll.voted webhook from the designs function, which may send to that queue', () => {
    const queue = envOf('webhooks-worker').QUEUE_URL_WEBHOOKS;
    expect(queue).toBeDefined();
    expect(envOf('designs').QUEUE_URL_WEBHOOKS).toEqual(queue);
    expect(grants.designs!.iam).toContain('sqs:SendMessage @ WebhooksQueue');
  });

  it('leaves poll items out of every partition-cut write (the render’s, the send-list worker’s)', () => {
    // The render and the send-list worker draw hostile content: their writes are conditioned on
    // partitions (render.ts), none of them a poll's (`$picsnippets#polldesign_…`).
    const pollKey = '$picsnippets#polldesign_d1#poll_p1';
    const statements = ofType('AWS::IAM::Policy').flatMap(
      ([, p]) =>
        (p.Properties.PolicyDocument as { Statement: Array<Record<string, unknown>> }).Statement,
    );
    const leadingKeys = statements
      .filter((st) => JSON.stringify(st).includes('dynamodb:LeadingKeys'))
      .flatMap(
        (st) =>
          (st.Condition as Record<string, Record<string, string[]>>)['ForAllValues:StringLike']?.[
            'dynamodb:LeadingKeys'
          ] ?? [],
      );
    expect(leadingKeys.length).toBeGreaterThan(0);
    for (const pattern of leadingKeys) {
      const re = new RegExp(
        `^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`,
      );
      expect(re.test(pollKey), pattern).toBe(false);
    }
  });
});

describe('the weather in AWS (docs/weather.md "In AWS")', () => {
  it('asks Open-Meteo from every function that draws: online, no stand-in, outside a VPC', () => {
    for (const feature of ['render', 'send-lists-worker']) {
      const env = envOf(feature);
      expect(env.STAGE, feature).toBe('aws');
      // Offline (recorded answers) only when told; the test stand-ins only with STAGE=test.
      expect(env.WEATHER_MODE, feature).toBeUndefined();
      expect(env.WEATHER_API_URLS, feature).toBeUndefined();
      expect(functions.get(feature)!.fn.Properties.VpcConfig, feature).toBeUndefined();
    }
  });

  it('forwards the reader’s place to the render on /r/* and /l/*, outside the cache key', () => {
    const policy = only('AWS::CloudFront::OriginRequestPolicy', 'RenderOriginRequestPolicy');
    const headers = (
      policy.Properties.OriginRequestPolicyConfig as {
        HeadersConfig: { Headers: string[] };
      }
    ).HeadersConfig.Headers;
    expect(headers).toEqual(
      expect.arrayContaining(['CloudFront-Viewer-Latitude', 'CloudFront-Viewer-Longitude']),
    );
    for (const path of ['/r/*', '/l/*'])
      expect(JSON.stringify(behavior(path).OriginRequestPolicyId), path).toContain(
        'RenderOriginRequestPolicy',
      );
    const cache = only('AWS::CloudFront::CachePolicy', 'RenderCachePolicy');
    expect(JSON.stringify(cache.Properties)).not.toContain('Viewer-Latitude');
  });
});

describe('live web crops in AWS (docs/web-crops.md "In AWS")', () => {
  it('routes the editor’s preview to the designs function', () => {
    const keys = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey);
    expect(keys).toContain('POST /api/pic-snippet/{id}/web-crop-preview');
  });

  it('opens pages only in the screenshot function, which holds no name of a table, bucket or secret', () => {
    const shot = functions.get('screenshot')!;
    expect(Object.keys(shot.env).sort()).toEqual(['FEATURE', 'NODE_OPTIONS', 'STAGE']);
    expect(grants.screenshot!.iam).toEqual([
      expect.stringMatching(/^logs:CreateLogStream,logs:PutLogEvents @ /),
    ]);
    // Who may invoke it: the render, the send-list worker and the designs function (preview).
    const invokers = Object.entries(grants)
      .filter(([, g]) =>
        g.iam.some((l) => /lambda:InvokeFunction @ .*RenderScreenshotFunction/.test(l)),
      )
      .map(([feature]) => feature)
      .sort();
    expect(invokers).toEqual(['designs', 'render', 'send-lists-worker']);
    for (const feature of invokers)
      expect(envOf(feature).SCREENSHOT_FUNCTION_NAME, feature).toEqual({ Ref: shot.id });
    // No function URL or outside principal reaches it.
    const permissions = ofType('AWS::Lambda::Permission').filter(([, p]) =>
      JSON.stringify(p.Properties.FunctionName).includes(shot.id),
    );
    expect(permissions).toEqual([]);
  });

  it('shares the render’s crop cache with the preview: the screenshot cache only', () => {
    const renders = grants.designs!.iam.filter((line) => line.includes('DataRendersBucket'));
    expect(renders).toEqual(['s3:GetObject,s3:PutObject @ DataRendersBucket/screenshots/*']);
    expect(grants.render!.iam).toContainEqual(
      expect.stringMatching(/^s3:GetObject,s3:PutObject @ .*DataRendersBucket\/screenshots\/\*/),
    );
    expect(envOf('designs').RENDERS_BUCKET).toEqual(envOf('render').RENDERS_BUCKET);
  });
});
