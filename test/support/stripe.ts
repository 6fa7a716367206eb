/**
 * The one fake of the billing tests (docs/billing.md): a `Stripe.HttpClient` that the real SDK
 * sends its requests to. It answers each request from a queue of recorded API responses
 * (test/fixtures/stripe, typed with the SDK's own types) and records what the SDK sent —
 * method, path, query, the form-encoded body and the Idempotency-Key header — so tests assert
 * the requests (`payment_behavior=default_incomplete`, `discounts[0][coupon]`, …).
 *
 * A request without a queued answer gets a Stripe-shaped 400 error (the SDK does not retry it)
 * and is kept in `unexpected`; tests check it stays empty.
 */
import Stripe from 'stripe';
import { afterAll, afterEach, expect } from 'vitest';
import type { LocalStack, LocalStackOptions } from '#infra/local/stack.ts';
import { useLocalStack } from './stack.ts';
import { resetConfig } from '#lib/config.ts';
import { setStripeHttpClient } from '#lib/stripe.ts';
import { IDS, customer, paymentMethod } from '../fixtures/stripe/objects.ts';

/** One request the SDK made. */
export interface RecordedRequest {
  method: string;
  /** Path without the query, e.g. `/v1/subscriptions`. */
  path: string;
  /** Query string parameters (GET and DELETE: the SDK puts a DELETE's parameters there). */
  query: URLSearchParams;
  /** The form body (POST), decoded: `form.get('items[0][price]')`. */
  form: URLSearchParams;
  idempotencyKey: string | undefined;
}

/**
 * A queued answer: a method and path (exact, or a pattern), the status and the JSON — or a
 * function that makes the JSON from the request (an answer that depends on what was sent).
 */
export interface QueuedAnswer {
  method: string;
  path: string | RegExp;
  status: number;
  body: unknown;
  /** Answer this many matching requests (default 1). */
  times: number;
}

class FixtureResponse extends Stripe.HttpClientResponse {
  constructor(
    status: number,
    private readonly body: string,
  ) {
    super(status, { 'request-id': `req_test_${Math.random().toString(36).slice(2, 10)}` });
  }
  /** The SDK hangs its `lastResponse` (headers, status) on this object. */
  override getRawResponse(): unknown {
    return { body: this.body };
  }
  override toStream(done: () => void): unknown {
    done();
    return this.body;
  }
  override toJSON(): Promise<unknown> {
    return Promise.resolve(JSON.parse(this.body));
  }
}

/** The recording client; `install()` routes the product's SDK client through it. */
export class RecordingStripeClient extends Stripe.HttpClient {
  readonly requests: RecordedRequest[] = [];
  readonly unexpected: RecordedRequest[] = [];
  private readonly queue: QueuedAnswer[] = [];

  override getClientName(): string {
    return 'picsnippets-test-recorder';
  }

  /**
   * Queues an answer for the next matching request.
   * @param body a fixture (a Stripe object, list or error) — serialised as Stripe would — or a
   *   function of the request that returns one.
   */
  on(
    method: string,
    path: string | RegExp,
    body: unknown,
    options: { status?: number; times?: number } = {},
  ): this {
    this.queue.push({
      method,
      path,
      body,
      status: options.status ?? 200,
      times: options.times ?? 1,
    });
    return this;
  }

  /** Queues a Stripe error answer (`{ error: { type, code, message, param } }`). */
  fail(
    method: string,
    path: string | RegExp,
    status: number,
    error: { type: string; message: string; code?: string; param?: string; decline_code?: string },
  ): this {
    return this.on(method, path, { error }, { status });
  }

  /** Requests to a method and path, in order. */
  sent(method: string, path: string | RegExp): RecordedRequest[] {
    return this.requests.filter(
      (r) =>
        r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
    );
  }

  /** The single request to a method and path. @throws Error when there is not exactly one. */
  only(method: string, path: string | RegExp): RecordedRequest {
    const found = this.sent(method, path);
    if (found.length !== 1)
      throw new Error(`expected one ${method} ${path}, got ${found.length}: ${this.describe()}`);
    return found[0]!;
  }

  /** Answers still queued (a test that queued more than the code asked for). */
  pending(): QueuedAnswer[] {
    return this.queue.filter((a) => a.times > 0);
  }

  /** Forgets requests and queued answers between tests. */
  reset(): void {
    this.requests.length = 0;
    this.unexpected.length = 0;
    this.queue.length = 0;
  }

  /** The requests so far, one line each, for failure messages. */
  describe(): string {
    return this.requests.map((r) => `${r.method} ${r.path}`).join(', ') || '(none)';
  }

  override makeRequest(
    _host: string,
    _port: string,
    fullPath: string,
    method: string,
    headers: Record<string, string | string[] | number | undefined>,
    requestData: string,
  ): Promise<Stripe.HttpClientResponse> {
    const url = new URL(fullPath, 'https://api.stripe.com');
    const key = Object.entries(headers).find(([k]) => k.toLowerCase() === 'idempotency-key')?.[1];
    const request: RecordedRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      form: new URLSearchParams(requestData ?? ''),
      idempotencyKey: key === undefined ? undefined : String(key),
    };
    this.requests.push(request);
    const answer = this.queue.find(
      (a) =>
        a.times > 0 &&
        a.method === method &&
        (typeof a.path === 'string' ? a.path === url.pathname : a.path.test(url.pathname)),
    );
    if (!answer) {
      this.unexpected.push(request);
      const body = {
        error: {
          type: 'invalid_request_error',
          message: `No recorded answer for ${method} ${url.pathname}`,
        },
      };
      return Promise.resolve(new FixtureResponse(400, JSON.stringify(body)));
    }
    answer.times -= 1;
    const body =
      typeof answer.body === 'function'
        ? (answer.body as (r: RecordedRequest) => unknown)(request)
        : answer.body;
    return Promise.resolve(new FixtureResponse(answer.status, JSON.stringify(body)));
  }
}

/** The test keys the billing tests run with (never real keys). */
export const TEST_KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_picsnippets_fixture',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_picsnippets_fixture',
  STRIPE_WEBHOOK_SECRET: 'whsec_picsnippets_fixture',
  STRIPE_PARTNER_COUPON: 'PARTNER50',
  STRIPE_PRICES: [
    'starter-monthly=price_starter_monthly',
    'starter-yearly=price_starter_yearly',
    'pro-monthly=price_pro_monthly',
    'pro-yearly=price_pro_yearly',
    'plan-freeze=price_plan_freeze',
  ].join(','),
} as const;

/**
 * Switches this test file's in-process handlers to online billing: sets the test keys and price
 * ids in the environment and routes the SDK through a new recording client. After the file the
 * SDK goes back to its own client, and test/support/file-setup.ts puts the environment back, so
 * the next file of a shared worker is offline again.
 * Call at module level, before `useLocalStack`.
 */
export function useRecordedStripe(): RecordingStripeClient {
  Object.assign(process.env, TEST_KEYS);
  resetConfig();
  const recorder = new RecordingStripeClient();
  setStripeHttpClient(recorder);
  afterAll(() => setStripeHttpClient(undefined));
  return recorder;
}

/** A signed webhook delivery: the raw JSON and its `Stripe-Signature` header. */
export function signedEvent(
  event: unknown,
  secret: string = TEST_KEYS.STRIPE_WEBHOOK_SECRET,
): { payload: string; signature: string } {
  const payload = JSON.stringify(event, null, 2);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return { payload, signature };
}

/**
 * Delivers a webhook event the way Stripe does: the raw JSON, signed with the test endpoint
 * secret, to `POST /stripe/webhook` of the stack at `baseUrl`.
 * @returns the webhook's status and JSON answer.
 */
export async function deliverEvent(
  baseUrl: string,
  event: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const { payload, signature } = signedEvent(event);
  const res = await fetch(`${baseUrl}/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    body: payload,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/**
 * The billing test files' setup: online billing through a recording client, the local stack,
 * and after each test a check that the code made no request without a queued answer.
 * Call at module level.
 * @param options the stack's options (default: no warm Chromium); the browser tests pass
 *   `web: 'preview'`, so the built SPA talks to the real handlers and they to the recorder.
 */
export function useOnlineBillingStack(options: LocalStackOptions = {}): {
  stripe: RecordingStripeClient;
  stack: () => LocalStack;
} {
  const stripe = useRecordedStripe();
  const stack = useLocalStack({ warmChromium: false, ...options });
  afterEach(() => {
    expect(stripe.unexpected, `unexpected Stripe calls: ${stripe.describe()}`).toEqual([]);
    stripe.reset();
  });
  return { stripe, stack };
}

/**
 * Queues Stripe's answers of a first subscribe with a new card, up to the subscription create:
 * the customer made, the card (`IDS.paymentMethod`) read and attached, the customer's default
 * payment method set.
 */
export function queueCustomerAndCard(stripe: RecordingStripeClient, customerId: string): void {
  stripe
    .on('POST', '/v1/customers', customer({ id: customerId }))
    .on('GET', `/v1/payment_methods/${IDS.paymentMethod}`, paymentMethod())
    .on(
      'POST',
      `/v1/payment_methods/${IDS.paymentMethod}/attach`,
      paymentMethod({ customer: customerId }),
    )
    .on('POST', `/v1/customers/${customerId}`, customer({ id: customerId }));
}
