/**
 * Send-list uploads from the browser in AWS (docs/adr/0055-send-list-uploads-from-the-browser.md
 * "Send-list uploads from the browser"): the SPA PUTs the file to the assets bucket by a presigned
 * URL, so the SPA's Content-Security-Policy must allow the bucket's regional origin in
 * `connect-src`, and the bucket must answer CORS for that PUT from the site's origin. And the
 * lists' files expire with their jobs (docs/send-lists.md "Known limits").
 */
import { afterAll, describe, expect, it } from 'vitest';
import { synthesise, type Resources } from './synth.ts';

const CLOUDFRONT_CSP_LIMIT = 1783; // characters CloudFront takes in a response headers policy

const withDomain = synthesise(
  {},
  {
    domain: {
      names: ['app.example.com', 'www.example.com'],
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc',
    },
  },
);
const plain = synthesise();
afterAll(() => {
  withDomain.remove();
  plain.remove();
});

const ofType = (resources: Resources, type: string) =>
  Object.entries(resources).filter(([, r]) => r.Type === type);

const assetsBucket = (resources: Resources) =>
  ofType(resources, 'AWS::S3::Bucket').find(([id]) => id.startsWith('DataAssetsBucket'))!;

/**
 * The SPA's policy with CloudFormation's references written out: `Ref` of the assets bucket as
 * `name`, the region and URL suffix as given.
 */
function spaPolicy(resources: Resources, name: string, region: string): string {
  const [bucketId] = assetsBucket(resources);
  const policies = ofType(resources, 'AWS::CloudFront::ResponseHeadersPolicy').filter(([id]) =>
    id.startsWith('WebSecurityHeaders'),
  );
  expect(policies).toHaveLength(1);
  const config = policies[0]![1].Properties.ResponseHeadersPolicyConfig as {
    SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: unknown } };
  };
  const write = (value: unknown): string => {
    if (typeof value === 'string') return value;
    const v = value as Record<string, unknown>;
    if (v.Ref === bucketId) return name;
    if (v.Ref === 'AWS::Region') return region;
    if (v.Ref === 'AWS::URLSuffix') return 'amazonaws.com';
    const [separator, parts] = v['Fn::Join'] as [string, unknown[]];
    return parts.map(write).join(separator);
  };
  return write(config.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy);
}

const directive = (policy: string, name: string) =>
  policy
    .split(';')
    .map((d) => d.trim().split(' '))
    .find(([n]) => n === name)!
    .slice(1);

describe('send-list uploads from the browser', () => {
  it("lets the SPA connect to the assets bucket's regional origin, and nothing else new", () => {
    const policy = spaPolicy(plain.resources, 'picsnippets-assets-abc', 'us-east-1');
    const connect = directive(policy, 'connect-src');
    expect(connect).toContain("'self'");
    expect(connect).toContain('https://picsnippets-assets-abc.s3.us-east-1.amazonaws.com');
    expect(connect.filter((s) => s.includes('s3.'))).toHaveLength(1);
    // Uploads add to connect-src only.
    expect(directive(policy, 'default-src')).toEqual(["'self'"]);
    expect(directive(policy, 'form-action')).toEqual(["'self'"]);
  });

  it('stays within what CloudFront takes with the longest bucket name and region', () => {
    const longest = spaPolicy(plain.resources, 'b'.repeat(63), 'ap-southeast-5');
    expect(longest.length).toBeLessThanOrEqual(CLOUDFRONT_CSP_LIMIT);
  });

  it("answers CORS for a PUT with the file's type from each custom domain", () => {
    const [, bucket] = assetsBucket(withDomain.resources);
    expect(bucket.Properties.CorsConfiguration).toEqual({
      CorsRules: [
        {
          AllowedMethods: ['PUT'],
          AllowedOrigins: ['https://app.example.com', 'https://www.example.com'],
          AllowedHeaders: ['content-type'],
          MaxAge: 3600,
        },
      ],
    });
  });

  it('answers CORS from CloudFront names when the site has no custom domain', () => {
    const [, bucket] = assetsBucket(plain.resources);
    const rules = (bucket.Properties.CorsConfiguration as { CorsRules: unknown[] }).CorsRules;
    expect(rules).toEqual([
      expect.objectContaining({
        AllowedMethods: ['PUT'],
        AllowedOrigins: ['https://*.cloudfront.net'],
      }),
    ]);
    // No other bucket answers CORS.
    const others = ofType(plain.resources, 'AWS::S3::Bucket').filter(
      ([id, b]) => !id.startsWith('DataAssetsBucket') && b.Properties.CorsConfiguration,
    );
    expect(others).toEqual([]);
  });
});

describe('send-list files in the assets bucket', () => {
  it('expire with their job, and their old versions a day later', async () => {
    const { JOB_RETENTION_SECONDS } = await import('#functions/send-lists/jobs.ts');
    const [, bucket] = assetsBucket(plain.resources);
    const rules = (
      bucket.Properties.LifecycleConfiguration as { Rules: Array<Record<string, unknown>> }
    ).Rules;
    const own = rules.filter((r) => r.Prefix === 'send-lists/');
    expect(own).toEqual([
      {
        Id: 'SendListFiles',
        Prefix: 'send-lists/',
        Status: 'Enabled',
        ExpirationInDays: JOB_RETENTION_SECONDS / 86_400,
        NoncurrentVersionExpiration: { NoncurrentDays: 1 },
      },
    ]);
    // The bucket's other rules stay: incomplete uploads, the old versions of everything else.
    expect(rules.length).toBeGreaterThan(1);
  });
});
