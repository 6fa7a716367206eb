/**
 * KMS grants for opening sealed secrets (functions/lib/secrets.ts: envelope encryption under
 * the one secrets key, each secret sealed with an encryption context that names its `purpose`).
 * A role that opens secrets gets kms:Decrypt only for the purposes it needs, through the
 * `kms:EncryptionContext:purpose` condition, so a role that draws hostile content (the render,
 * the send-list worker) cannot open a user's two-factor secret or a platform credential even
 * with a sealed copy in hand (docs/security.md "Open-time content"; test/infra/stack.test.ts).
 */
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';

/**
 * The purposes in the code's encryption contexts: `render-signing` (functions/lib/signing-
 * secrets.ts), `web-api` (functions/data-sources/web-api.ts: a web API's secret headers),
 * `webhook` (functions/domain/webhooks.ts: endpoints' signing secrets).
 */
export type SecretPurpose = 'render-signing' | 'web-api' | 'webhook';

/**
 * kms:Decrypt on `key` for secrets sealed with one of `purposes` only.
 * @param purposes at least one; the condition is `StringEquals` over the list (any of them).
 */
export function decryptFor(key: kms.IKey, purposes: readonly SecretPurpose[]): iam.PolicyStatement {
  return new iam.PolicyStatement({
    actions: ['kms:Decrypt'],
    resources: [key.keyArn],
    conditions: { StringEquals: { 'kms:EncryptionContext:purpose': [...purposes] } },
  });
}
