/**
 * The edge (docs/infra.md "What the stack creates"): one CloudFront distribution in front of the
 * SPA (S3 via origin access control), the HTTP API and the render function URL.
 */
import {
  spaContentSecurityPolicy,
  USER_FILES_CONTENT_SECURITY_POLICY,
  WITHDRAWN_TAG,
} from '#shared/security.ts';
import { Duration, Fn, Stack, Validations } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER } from '#lib/origin-verify.ts';
import { CLOUDFRONT_LOG_PREFIX } from './data.ts';
import { ROUTES } from '#shared/routes.ts';
import type { Render } from './render.ts';
import { API_ORIGIN_ID, routerFunctionCode } from './router-function.ts';

/** Stands for the assets bucket's origin while the policy is checked (a token is no origin). */
const UPLOAD_ORIGIN_PLACEHOLDER = 'https://assets-bucket.invalid';

/**
 * The SPA's Content-Security-Policy with the assets bucket's regional origin in `connect-src`
 * (`https://{bucket}.s3.{region}.amazonaws.com`, where the SDK's presigned send-list PUT goes:
 * docs/adr/0055-send-list-uploads-from-the-browser.md "Send-list uploads from the browser").
 */
export function spaPolicyWithUploads(assets: s3.IBucket, fontCdnUrl: string | undefined): string {
  const stack = Stack.of(assets);
  const origin = `https://${assets.bucketName}.s3.${stack.region}.${stack.urlSuffix}`;
  return spaContentSecurityPolicy({
    fontCdnUrl,
    uploadOrigin: UPLOAD_ORIGIN_PLACEHOLDER,
  }).replace(UPLOAD_ORIGIN_PLACEHOLDER, origin);
}

/** How long a browser keeps the bucket's answer to an upload's preflight, s. */
const UPLOAD_PREFLIGHT_MAX_AGE_SECONDS = 3600;

/**
 * Lets the SPA PUT send-list files straight to the assets bucket
 * (docs/adr/0055-send-list-uploads-from-the-browser.md "Send-list uploads from the browser"): a
 * CORS rule for PUT with `content-type` (the one header the API
 * names) from the site's origins: each custom domain name, else `https://*.cloudfront.net` (the
 * distribution's own name would make the bucket depend on the distribution, which depends on the
 * bucket). The presigned URL's signature, not CORS, is what authorises an upload.
 */
export function allowBrowserUploads(assets: s3.Bucket, domain: CustomDomain | undefined): void {
  assets.addCorsRule({
    allowedMethods: [s3.HttpMethods.PUT],
    allowedOrigins: domain
      ? domain.names.map((name) => `https://${name}`)
      : ['https://*.cloudfront.net'],
    allowedHeaders: ['content-type'],
    maxAge: UPLOAD_PREFLIGHT_MAX_AGE_SECONDS,
  });
}

/** A custom domain for the product; its ACM certificate must be in us-east-1. */
export interface CustomDomain {
  /** e.g. `app.picsnippets.com`; the first is the public URL. */
  names: string[];
  certificateArn: string;
}

export interface WebProps {
  webBucket: s3.IBucket;
  /** User files (profile and team photos, uploads) under `files/`, served at `/files/*`. */
  assetsBucket: s3.IBucket;
  logsBucket: s3.IBucket;
  httpApi: apigwv2.IHttpApi;
  /** Sent as `x-origin-verify` on every request to the API origin (api.ts). */
  originVerifySecret: secretsmanager.ISecret;
  render: Render;
  domain?: CustomDomain;
  /** The fontsource CDN's font files base, allowed in the SPA's `font-src`; absent, none. */
  fontCdnUrl?: string;
}

/** How long CloudFront waits for the HTTP API (API Gateway's own limit is 30 s). */
const API_ORIGIN_READ_TIMEOUT = Duration.seconds(30);

/**
 * The distribution (behaviours in order of precedence):
 * - `/assets/*`: the SPA's content-hashed build output from S3, cached up to a year;
 * - `/files/*`: user files from the assets bucket (keys `files/…`, random and immutable), cached
 *   up to a year, with `nosniff` and a sandboxing CSP so an uploaded file can never act as a
 *   page (functions/lib/uploads.ts);
 * - `/js/*`: the web-tracking script from the HTTP API, cached up to a year by `?v=` (the
 *   answer's Cache-Control decides: immutable for the versioned address, a day otherwise);
 * - `/api/*` and `/stripe/webhook`: the HTTP API, all methods, never cached, every viewer header
 *   but Host forwarded with cookies and query strings (AllViewerExceptHostHeader);
 * - `/r/*`: the render function URL (OAC), the render cache policy (all query strings) and the
 *   query-normalising function;
 * - default: the web bucket through OAC, with the router function generated from the route
 *   table (router-function.ts): the spec's API paths outside `/api/` go to the API origin, SPA
 *   navigations get `/index.html`. Because API calls flow through it, the default behaviour
 *   allows all methods, does not cache (CachingDisabled) and forwards AllViewerExceptHostHeader.
 *
 * All behaviours: HTTPS only (HTTP redirects), security headers (HSTS 2 years with subdomains,
 * nosniff, SAMEORIGIN frames, strict-origin-when-cross-origin referrer), HTTP/2 and HTTP/3,
 * standard logs to the logs bucket, the WebACL from render.ts. TLS 1.2 minimum when a custom
 * domain is given (the default *.cloudfront.net certificate cannot enforce it).
 * docs/infra.md "What the stack creates"; docs/infra.md "API and SPA on one origin".
 */
export class Web extends Construct {
  readonly distribution: cloudfront.Distribution;
  readonly routerFunction: cloudfront.Function;
  /** `https://<domain>`: the custom domain's first name, else the distribution's domain. */
  readonly publicUrl: string;

  constructor(scope: Construct, id: string, props: WebProps) {
    super(scope, id);

    const s3Origin = origins.S3BucketOrigin.withOriginAccessControl(props.webBucket, {
      originId: 'web',
    });
    const apiOrigin = new origins.HttpOrigin(
      Fn.select(2, Fn.split('/', props.httpApi.apiEndpoint)),
      {
        // Known id: the router function selects this origin by it.
        originId: API_ORIGIN_ID,
        protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
        readTimeout: API_ORIGIN_READ_TIMEOUT,
        // Resolved by CloudFormation at deploy ({{resolve:secretsmanager:…}}), never in the
        // template; it replaces any viewer header of the same name.
        customHeaders: {
          [ORIGIN_VERIFY_HEADER]: props.originVerifySecret.secretValue.unsafeUnwrap(),
        },
      },
    );

    const securityHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'PicSnippets: HSTS, CSP, nosniff, frame options, referrer policy',
      securityHeadersBehavior: {
        // override false: API answers keep their own, stricter policy; SPA documents get this.
        contentSecurityPolicy: {
          contentSecurityPolicy: spaPolicyWithUploads(props.assetsBucket, props.fontCdnUrl),
          override: false,
        },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.SAMEORIGIN, override: true },
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
      },
    });

    const staticAssets = new cloudfront.CachePolicy(this, 'StaticAssetsCachePolicy', {
      comment: 'PicSnippets SPA build output: file names carry a content hash, cache a year',
      minTtl: Duration.days(1),
      defaultTtl: Duration.days(365),
      maxTtl: Duration.days(365),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.none(),
      cookieBehavior: cloudfront.CacheCookieBehavior.none(),
      headerBehavior: cloudfront.CacheHeaderBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });

    // The web-tracking script (docs/adr/0044-the-api-contract.md "The API contract"
    // `/js/{product}.js`): its snippet loads `?v={hash}`, which the API answers immutable for a
    // year; other addresses are cached a day (the origin's Cache-Control decides within these
    // bounds). Only `v` is in the cache key.
    const scripts = new cloudfront.CachePolicy(this, 'ScriptsCachePolicy', {
      comment: 'PicSnippets /js/*: the web-tracking script, versioned by ?v=, cached long',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.days(1),
      maxTtl: Duration.days(365),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.allowList('v'),
      cookieBehavior: cloudfront.CacheCookieBehavior.none(),
      headerBehavior: cloudfront.CacheHeaderBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });

    const userFilesOrigin = origins.S3BucketOrigin.withOriginAccessControl(props.assetsBucket, {
      originId: 'user-files',
    });
    // A deleted upload is withdrawn, not erased (renders may still draw it): CloudFront may not
    // read an object tagged withdrawn (functions/lib/uploads.ts `withdrawUserFile`,
    // docs/security.md "Deleted uploads"). An explicit Deny beats the OAC's Allow.
    props.assetsBucket.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'WithdrawnUserFilesAreNotServed',
        effect: iam.Effect.DENY,
        principals: [new iam.ServicePrincipal('cloudfront.amazonaws.com')],
        actions: ['s3:GetObject'],
        resources: [props.assetsBucket.arnForObjects('files/*')],
        conditions: {
          StringEquals: { [`s3:ExistingObjectTag/${WITHDRAWN_TAG.Key}`]: WITHDRAWN_TAG.Value },
        },
      }),
    );
    const userFilesHeaders = new cloudfront.ResponseHeadersPolicy(this, 'UserFilesHeaders', {
      comment: 'PicSnippets user files: nosniff and a sandbox CSP, never a page',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: USER_FILES_CONTENT_SECURITY_POLICY,
          override: true,
        },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER,
          override: true,
        },
      },
    });

    this.routerFunction = new cloudfront.Function(this, 'RouterFunction', {
      comment: 'PicSnippets: API or SPA, from shared/routes.ts (isApiRequest)',
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(routerFunctionCode(ROUTES)),
    });

    const apiBehavior: cloudfront.BehaviorOptions = {
      origin: apiOrigin,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: securityHeaders,
      compress: true,
    };

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'PicSnippets: SPA, API and render URLs',
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      // E-mail recipients are everywhere; all edge locations.
      priceClass: cloudfront.PriceClass.PRICE_CLASS_ALL,
      webAclId: props.render.webAcl.attrArn,
      enableLogging: true,
      logBucket: props.logsBucket,
      logFilePrefix: CLOUDFRONT_LOG_PREFIX,
      ...(props.domain === undefined
        ? {}
        : {
            domainNames: props.domain.names,
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
            certificate: acm.Certificate.fromCertificateArn(
              this,
              'Certificate',
              props.domain.certificateArn,
            ),
          }),
      defaultBehavior: {
        origin: s3Origin,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
        cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
        originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        responseHeadersPolicy: securityHeaders,
        compress: true,
        functionAssociations: [
          {
            function: this.routerFunction,
            eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
          },
        ],
      },
      additionalBehaviors: {
        '/assets/*': {
          origin: s3Origin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: staticAssets,
          responseHeadersPolicy: securityHeaders,
          compress: true,
        },
        '/files/*': {
          origin: userFilesOrigin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: staticAssets,
          responseHeadersPolicy: userFilesHeaders,
          compress: true,
        },
        '/js/*': {
          origin: apiOrigin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: scripts,
          // No origin request policy: API Gateway must see its own Host; no cookies needed.
          responseHeadersPolicy: securityHeaders,
          compress: true,
        },
        '/api/*': apiBehavior,
        '/stripe/webhook': apiBehavior,
        // Rule links (docs/rules.md "Links"): the render function, never cached (each click
        // is evaluated), with the same viewer headers as the image and the same query
        // normaliser, so a link evaluates duplicated or reordered parameters as its image does.
        '/l/*': {
          origin: props.render.origin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: props.render.originRequestPolicy,
          responseHeadersPolicy: securityHeaders,
          functionAssociations: [
            {
              function: props.render.queryNormaliser,
              eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
            },
          ],
        },
        '/r/*': {
          origin: props.render.origin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: props.render.cachePolicy,
          // The viewer's address and user agent for the render limits; never Host (the function
          // URL must see its own).
          originRequestPolicy: props.render.originRequestPolicy,
          responseHeadersPolicy: securityHeaders,
          compress: true,
          functionAssociations: [
            {
              function: props.render.queryNormaliser,
              eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
            },
          ],
        },
      },
    });

    this.publicUrl =
      props.domain === undefined
        ? `https://${this.distribution.distributionDomainName}`
        : `https://${props.domain.names[0]}`;

    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason:
        'No geo restriction: render URLs are opened by e-mail recipients, web pages and video ' +
        'players in every country, and the product is sold worldwide (spec 001 §7 EU VAT list).',
    });
    if (props.domain === undefined) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'Without a custom domain the distribution uses the default *.cloudfront.net ' +
          'certificate, whose security policy CloudFront fixes at TLSv1; passing a custom ' +
          'domain (context domainNames + certificateArn) sets TLSv1.2_2021.',
      });
    }
  }
}
