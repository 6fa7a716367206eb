/**
 * A team's merge-tag platform credentials, stored encrypted (docs/export.md; entity
 * `ProviderCredential`, envelope encryption in functions/lib/secrets.ts with the encryption
 * context `{ teamId, provider }`). They are read only to call the platform; no answer carries
 * them.
 */
import { db } from '#lib/db/index.ts';
import { openSecret, sealSecret, secretKeys, type SealedSecret } from '#lib/secrets.ts';
import type { ProviderValue } from '#shared/providers/index.ts';

/** Saves, loads and forgets one credential per team and provider. */
export interface CredentialStore {
  load(teamId: string, provider: ProviderValue): Promise<string | undefined>;
  save(teamId: string, provider: ProviderValue, secret: string, userId: string): Promise<void>;
  remove(teamId: string, provider: ProviderValue): Promise<void>;
}

/** The store over DynamoDB and the deployment's keys (KMS in AWS). */
export const dynamoCredentials: CredentialStore = {
  async load(teamId, provider) {
    const item = (await db().ProviderCredential.get({ teamId, provider }).go()).data;
    if (!item) return undefined;
    return openSecret(JSON.parse(item.sealed) as SealedSecret, { teamId, provider }, secretKeys());
  },
  async save(teamId, provider, secret, userId) {
    const sealed = await sealSecret(secret, { teamId, provider }, secretKeys());
    await db()
      .ProviderCredential.put({ teamId, provider, sealed: JSON.stringify(sealed), savedBy: userId })
      .go({ response: 'none' });
  },
  async remove(teamId, provider) {
    await db().ProviderCredential.delete({ teamId, provider }).go({ response: 'none' });
  },
};
