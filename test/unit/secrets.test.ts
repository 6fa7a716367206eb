/**
 * Envelope encryption of stored secrets (functions/lib/secrets.ts; docs/export.md): the local
 * master key and KMS (a fake client answering GenerateDataKey and Decrypt as KMS documents).
 */
import { GenerateDataKeyCommand, type DecryptCommand } from '@aws-sdk/client-kms';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '#lib/config.ts';
import {
  SecretError,
  kmsDataKeys,
  localDataKeys,
  openSecret,
  sealSecret,
  secretKeys,
} from '#lib/secrets.ts';

const team = { teamId: 'team-demo', provider: 'klaviyo' };

describe('with a local master key', () => {
  const keys = localDataKeys(randomBytes(32));

  it('opens what it sealed, and the stored form does not show the secret', async () => {
    const sealed = await sealSecret('pk_live_secret_1234', team, keys);
    expect(JSON.stringify(sealed)).not.toContain('pk_live');
    expect(await openSecret(sealed, team, keys)).toBe('pk_live_secret_1234');
    // A fresh data key and nonce each time.
    const again = await sealSecret('pk_live_secret_1234', team, keys);
    expect(again.ct).not.toBe(sealed.ct);
    expect(again.edk).not.toBe(sealed.edk);
  });

  it('refuses another team, a changed byte, or another master key', async () => {
    const sealed = await sealSecret('pk_live_secret_1234', team, keys);
    await expect(openSecret(sealed, { ...team, teamId: 'team-admin' }, keys)).rejects.toThrow(
      SecretError,
    );
    const ct = Buffer.from(sealed.ct, 'base64');
    ct[0]! ^= 1;
    await expect(openSecret({ ...sealed, ct: ct.toString('base64') }, team, keys)).rejects.toThrow(
      SecretError,
    );
    await expect(openSecret(sealed, team, localDataKeys(randomBytes(32)))).rejects.toThrow(
      SecretError,
    );
  });

  it('refuses a tag cut short, which GCM would otherwise check only in part', async () => {
    const sealed = await sealSecret('pk_live_secret_1234', team, keys);
    const short = Buffer.from(sealed.tag, 'base64').subarray(0, 4).toString('base64');
    await expect(openSecret({ ...sealed, tag: short }, team, keys)).rejects.toThrow(SecretError);
    const shortNonce = Buffer.from(sealed.iv, 'base64').subarray(0, 8).toString('base64');
    await expect(openSecret({ ...sealed, iv: shortNonce }, team, keys)).rejects.toThrow(
      SecretError,
    );
  });
});

describe('with KMS', () => {
  /** A fake KMS: data keys wrapped by its own master key, the encryption context enforced. */
  function fakeKms() {
    const inner = localDataKeys(randomBytes(32));
    const calls: string[] = [];
    return {
      calls,
      async send(command: GenerateDataKeyCommand | DecryptCommand) {
        calls.push(command.constructor.name);
        if (command instanceof GenerateDataKeyCommand) {
          const key = await inner.generate(command.input.EncryptionContext ?? {});
          return { Plaintext: key.plaintext, CiphertextBlob: key.encrypted, KeyId: 'arn:key/1' };
        }
        const input = command.input;
        const plaintext = await inner.decrypt(
          Buffer.from(input.CiphertextBlob!),
          'local',
          input.EncryptionContext ?? {},
        );
        return { Plaintext: plaintext, KeyId: 'arn:key/1' };
      },
    };
  }

  it('seals with a KMS data key and opens through Decrypt with the same context', async () => {
    const kms = fakeKms();
    const keys = kmsDataKeys(kms as never, 'alias/picsnippets-secrets');
    const sealed = await sealSecret('page-api-key', team, keys);
    expect(sealed.keyId).toBe('arn:key/1');
    expect(await openSecret(sealed, team, keys)).toBe('page-api-key');
    expect(kms.calls).toEqual(['GenerateDataKeyCommand', 'DecryptCommand']);
    await expect(openSecret(sealed, { ...team, provider: 'manychat' }, keys)).rejects.toThrow(
      SecretError,
    );
  });
});

describe('the deployment’s keys', () => {
  it('refuses to store secrets in AWS without a KMS key', () => {
    expect(() => secretKeys(loadConfig({ STAGE: 'aws' }))).toThrow(/SECRETS_KMS_KEY_ID/);
  });

  it('uses the configured local key outside AWS', async () => {
    const local = randomBytes(32).toString('base64');
    const keys = secretKeys(loadConfig({ STAGE: 'test', SECRETS_LOCAL_KEY: local }));
    const sealed = await sealSecret('x', team, keys);
    expect(await openSecret(sealed, team, localDataKeys(Buffer.from(local, 'base64')))).toBe('x');
  });
});
