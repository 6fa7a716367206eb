/**
 * `npm run deploy [-- <cdk deploy options>]` (docs/infra.md "Deploy", README "Deploying to AWS"):
 * builds the SPA and the render page, deploys the stack with the CDK CLI, then uploads the SPA
 * to the stack's web bucket (infra/deploy/upload-web.ts), installs the library content where it
 * is missing (infra/deploy/install-library.ts: photos, sticker packs, hosted fonts), and
 * invalidates the SPA's entry points on CloudFront. Options after `--` go to `cdk deploy` (e.g. `-c
 * alarmEmail=ops@example.com`).
 *
 * It needs AWS credentials for the account (the development machines are offline: this runs on
 * an operator's machine or in CI with credentials).
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CloudFrontClient, CreateInvalidationCommand } from '@aws-sdk/client-cloudfront';
import { S3Client } from '@aws-sdk/client-s3';
import { PROJECT_ROOT } from '../constructs/handler-function.ts';
import { STACK_REGION, stackNameOf } from '../stack.ts';
import { uploadWeb } from './upload-web.ts';

const OUTPUTS = join(PROJECT_ROOT, 'cdk.out', 'deploy-outputs.json');

const run = (command: string, args: string[]) =>
  execFileSync(command, args, { cwd: PROJECT_ROOT, stdio: 'inherit' });

/** The value of `-c name=value` / `--context name=value` in the CLI arguments, if given. */
export function contextValue(args: readonly string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value =
      arg === '-c' || arg === '--context' ? args[i + 1] : arg.replace(/^--context=/, '');
    if (value?.startsWith(`${name}=`)) return value.slice(name.length + 1);
  }
  return undefined;
}

async function main(): Promise<void> {
  // `-c stage=staging` deploys a second, isolated stack (docs/infra.md "Stages").
  const STACK = stackNameOf(contextValue(process.argv.slice(2), 'stage'));
  run('npm', ['run', 'build']);
  run('npx', [
    'cdk',
    'deploy',
    STACK,
    '--no-notices',
    '--require-approval',
    'broadening',
    '--outputs-file',
    OUTPUTS,
    ...process.argv.slice(2),
  ]);
  const outputs = (
    JSON.parse(await readFile(OUTPUTS, 'utf8')) as Record<string, Record<string, string>>
  )[STACK];
  const bucket = outputs?.WebBucketName;
  const distributionId = outputs?.DistributionId;
  if (!bucket || !distributionId)
    throw new Error(`${OUTPUTS} lacks WebBucketName or DistributionId.`);
  const s3 = new S3Client({ region: STACK_REGION });
  const report = await uploadWeb(s3, bucket, join(PROJECT_ROOT, 'dist', 'web'));
  console.log(
    `SPA: ${report.uploaded.length} files uploaded, ${report.unchanged} unchanged, ${report.deleted.length} deleted.`,
  );
  if (!outputs.TableName || !outputs.AssetsBucketName) {
    throw new Error(`${OUTPUTS} lacks TableName or AssetsBucketName.`);
  }
  // The installer reads the table and bucket through functions/lib's config, as the Lambdas do.
  Object.assign(process.env, {
    STAGE: 'aws',
    AWS_REGION: STACK_REGION,
    TABLE_NAME: outputs.TableName,
    ASSETS_BUCKET: outputs.AssetsBucketName,
  });
  if (outputs.PublicUrl) process.env.PUBLIC_URL = outputs.PublicUrl;
  const { installLibrary } = await import('./install-library.ts');
  const library = await installLibrary((line) => console.log(line));
  console.log(
    `Library: ${library.photos} photos, ${library.stickerPacks} sticker packs, ${library.fontFiles} font files written.`,
  );
  await new CloudFrontClient({ region: STACK_REGION }).send(
    new CreateInvalidationCommand({
      DistributionId: distributionId,
      InvalidationBatch: {
        CallerReference: `deploy-${Date.now()}`,
        Paths: { Quantity: 2, Items: ['/index.html', '/'] },
      },
    }),
  );
  const adminEmail = contextValue(process.argv.slice(2), 'adminEmail');
  if (adminEmail) {
    const { bootstrapAdmin } = await import('./admin.ts');
    const admin = await bootstrapAdmin(adminEmail);
    console.log(
      `Platform admin ${adminEmail} (${admin.created ? 'new account' : 'existing account'}). ` +
        `Sign in within an hour by choosing a password here (one use):\n  ${admin.link}`,
    );
  }
  console.log(`Deployed: ${outputs.PublicUrl ?? '(see the stack outputs)'}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
