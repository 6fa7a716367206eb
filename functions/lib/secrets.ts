/**
 * Envelope encryption of small secrets kept in DynamoDB (docs/export.md: "provider credentials
 * are stored encrypted per team; KMS in AWS, a local key").
 *
 * Each secret gets a fresh 256-bit data key; the secret is encrypted with AES-256-GCM under it,
 * and only the data key's encrypted form is stored beside the ciphertext. In AWS the data key
 * comes from KMS `GenerateDataKey` and is opened with `Decrypt` (the master key never leaves
 * KMS); locally a master key from the configuration wraps it with AES-256-GCM. An encryption
 * context (e.g. `{ teamId, provider }`) is bound to both layers (KMS encryption context, GCM
 * additional data), so a secret copied to another team's item does not open there.
 * Plaintext data keys are zeroed after use.
 */
import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { config, type Config } from './config.ts';

/** What is stored: every binary field base64. */
export interface SealedSecret {
  v: 1;
  /** Which master key wrapped the data key (`local` or the KMS key id/ARN). */
  keyId: string;
  /** The encrypted data key. */
  edk: string;
  /** AES-GCM nonce (12 bytes), tag (16 bytes) and ciphertext of the secret. */
  iv: string;
  tag: string;
  ct: string;
}

/** Names what a secret belongs to; bound to the ciphertext, required to open it. */
export type EncryptionContext = Record<string, string>;

/** Where data keys come from (KMS in AWS, a local master key elsewhere). */
export interface DataKeySource {
  generate(
    context: EncryptionContext,
  ): Promise<{ plaintext: Buffer; encrypted: Buffer; keyId: string }>;
  /** @throws Error when the key does not open (wrong master key or context). */
  decrypt(encrypted: Buffer, keyId: string, context: EncryptionContext): Promise<Buffer>;
}

/** Thrown when a sealed secret does not open: tampered, wrong context, or wrong key. */
export class SecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretError';
  }
}

/** The context as stable bytes (sorted keys), for GCM's additional data. */
const aad = (context: EncryptionContext): Buffer =>
  Buffer.from(JSON.stringify(Object.entries(context).sort(([a], [b]) => (a < b ? -1 : 1))));

function gcmSeal(key: Buffer, plaintext: Buffer, context: EncryptionContext) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(context));
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ct };
}

function gcmOpen(
  key: Buffer,
  parts: { iv: Buffer; tag: Buffer; ct: Buffer },
  context: EncryptionContext,
): Buffer {
  // The nonce and tag at their full sizes only: GCM accepts a tag cut to 4 bytes, which would
  // check only its first bytes (docs/security.md "Sealed secrets: a review").
  if (parts.iv.length !== 12 || parts.tag.length !== 16)
    throw new SecretError('The sealed secret is malformed.');
  const decipher = createDecipheriv('aes-256-gcm', key, parts.iv, { authTagLength: 16 });
  decipher.setAAD(aad(context));
  decipher.setAuthTag(parts.tag);
  return Buffer.concat([decipher.update(parts.ct), decipher.final()]);
}

/**
 * Data keys wrapped by a local master key (32 bytes): the encrypted data key is
 * `iv (12) | tag (16) | ciphertext (32)`.
 */
export function localDataKeys(masterKey: Buffer): DataKeySource {
  if (masterKey.length !== 32) throw new RangeError('The local master key must be 32 bytes.');
  return {
    async generate(context) {
      const plaintext = randomBytes(32);
      const { iv, tag, ct } = gcmSeal(masterKey, plaintext, context);
      return { plaintext, encrypted: Buffer.concat([iv, tag, ct]), keyId: 'local' };
    },
    async decrypt(encrypted, keyId, context) {
      if (keyId !== 'local') throw new SecretError(`Sealed with ${keyId}, not the local key.`);
      return gcmOpen(
        masterKey,
        {
          iv: encrypted.subarray(0, 12),
          tag: encrypted.subarray(12, 28),
          ct: encrypted.subarray(28),
        },
        context,
      );
    },
  };
}

/** Data keys from AWS KMS (`GenerateDataKey` AES_256, `Decrypt`), with the encryption context. */
export function kmsDataKeys(client: Pick<KMSClient, 'send'>, keyId: string): DataKeySource {
  return {
    async generate(context) {
      const out = await client.send(
        new GenerateDataKeyCommand({
          KeyId: keyId,
          KeySpec: 'AES_256',
          EncryptionContext: context,
        }),
      );
      if (!out.Plaintext || !out.CiphertextBlob) throw new SecretError('KMS returned no data key.');
      return {
        plaintext: Buffer.from(out.Plaintext),
        encrypted: Buffer.from(out.CiphertextBlob),
        keyId: out.KeyId ?? keyId,
      };
    },
    async decrypt(encrypted, sealedKeyId, context) {
      const out = await client.send(
        new DecryptCommand({
          CiphertextBlob: encrypted,
          KeyId: sealedKeyId,
          EncryptionContext: context,
        }),
      );
      if (!out.Plaintext) throw new SecretError('KMS returned no plaintext.');
      return Buffer.from(out.Plaintext);
    },
  };
}

/**
 * Encrypts a secret under a fresh data key.
 * @param context what the secret belongs to; the same context is needed to open it.
 */
export async function sealSecret(
  secret: string,
  context: EncryptionContext,
  keys: DataKeySource,
): Promise<SealedSecret> {
  const dataKey = await keys.generate(context);
  try {
    const { iv, tag, ct } = gcmSeal(dataKey.plaintext, Buffer.from(secret, 'utf8'), context);
    return {
      v: 1,
      keyId: dataKey.keyId,
      edk: dataKey.encrypted.toString('base64'),
      iv: iv.toString('base64'),
      tag: tag.toString('base64'),
      ct: ct.toString('base64'),
    };
  } finally {
    dataKey.plaintext.fill(0);
  }
}

/**
 * Decrypts a sealed secret.
 * @throws SecretError when it does not open (tampered, other context, other key).
 */
export async function openSecret(
  sealed: SealedSecret,
  context: EncryptionContext,
  keys: DataKeySource,
): Promise<string> {
  let dataKey: Buffer | undefined;
  try {
    dataKey = await keys.decrypt(Buffer.from(sealed.edk, 'base64'), sealed.keyId, context);
    const b64 = (s: string) => Buffer.from(s, 'base64');
    return gcmOpen(
      dataKey,
      { iv: b64(sealed.iv), tag: b64(sealed.tag), ct: b64(sealed.ct) },
      context,
    ).toString('utf8');
  } catch (error) {
    if (error instanceof SecretError) throw error;
    throw new SecretError('The secret does not open with this key and context.');
  } finally {
    dataKey?.fill(0);
  }
}

let configured: { key: string; source: DataKeySource } | undefined;

/**
 * The deployment's data keys: KMS with `SECRETS_KMS_KEY_ID`; else, outside AWS, the local master
 * key `SECRETS_LOCAL_KEY` (base64, 32 bytes), or a fixed development key when unset.
 * @throws Error in AWS without `SECRETS_KMS_KEY_ID` (no secret is ever stored under a known key).
 */
export function secretKeys(c: Config = config()): DataKeySource {
  const key = `${c.STAGE}|${c.SECRETS_KMS_KEY_ID ?? ''}|${c.SECRETS_LOCAL_KEY ?? ''}`;
  if (configured?.key === key) return configured.source;
  let source: DataKeySource;
  if (c.SECRETS_KMS_KEY_ID) {
    source = kmsDataKeys(new KMSClient({ region: c.AWS_REGION }), c.SECRETS_KMS_KEY_ID);
  } else if (c.STAGE === 'aws') {
    throw new Error('SECRETS_KMS_KEY_ID is required in AWS to store secrets.');
  } else if (c.SECRETS_LOCAL_KEY) {
    source = localDataKeys(Buffer.from(c.SECRETS_LOCAL_KEY, 'base64'));
  } else {
    // Local development only (refused in AWS above): a well-known key protects nothing real.
    source = localDataKeys(
      createHash('sha256').update('picsnippets local development key').digest(),
    );
  }
  configured = { key, source };
  return source;
}
