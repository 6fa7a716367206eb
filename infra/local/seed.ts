/**
 * Seeds an empty local database (docs/operations.md "First start"): the admin and demo users, the
 * demo team, the plans (free, Starter and Pro monthly and yearly, plan-freeze; the demo team is on
 * Pro as data, with no subscription) and the demo design `demo-welcome`, after the library
 * installer (infra/deploy/install-library.ts: photos, sticker packs, hosted fonts, where missing).
 * Idempotent: a database that already has the demo user is left alone.
 *
 * Local only: the demo logins must never exist in AWS, so `seed` refuses `STAGE=aws`.
 */
import { config } from '#lib/config.ts';
import { db } from '#lib/db/index.ts';
import { hashPassword } from '#lib/passwords.ts';
import { DesignDocumentSchema, type DesignDocumentInput } from '#shared/design.ts';
import { writePlans } from '#functions/billing/plans.ts';
import { installLibrary } from '../deploy/install-library.ts';
import { seedTemplates } from './seed-templates.ts';

/** The demo logins printed by `npm start` (local only). */
export const DEMO_LOGINS = [
  { email: 'admin@example.com', password: 'demo-password', role: 'platform admin' },
  {
    email: 'demo@example.com',
    password: 'demo-password',
    role: 'owner of the Demo Team (Pro plan)',
  },
] as const;

/** The demo design's public render id. */
export const DEMO_PUBLIC_ID = 'demo-welcome';

export const IDS = {
  admin: 'user-admin',
  demo: 'user-demo',
  demoTeam: 'team-demo',
  adminTeam: 'team-admin',
  demoDesign: 'design-demo-welcome',
  freePlan: 'free',
  proPlan: 'pro-monthly',
} as const;

/**
 * The demo design: `autumn.jpg` at 1000 px wide (docs/security.md "Render limits" base image
 * scaling), one text snippet `Hello {{first_name}}!` with fallback `there`, bold sans-serif 64 px,
 * white with a dark outline.
 */
export function demoDesignDocument(base: {
  key: string;
  width: number;
  height: number;
}): DesignDocumentInput {
  const width = 1000;
  const height = Math.round((base.height / base.width) * width);
  return {
    schemaVersion: 1,
    image_id: 'library-autumn',
    base_image_key: base.key,
    canvas_width: width,
    canvas_height: height,
    text_snippets: [
      {
        id: 'snippet-hello',
        text: 'Hello {{first_name}}!',
        fontFamily: 'Noto Sans',
        fontWeight: 'bold',
        fontSize: 64,
        minFontSize: 32,
        fill: '#ffffff',
        stroke: '#1f2937',
        strokeWidth: 4,
        textAlign: 'center',
        left: 50,
        top: Math.round(height / 2 - 48),
        width: 900,
        parameters: [
          {
            id: 'param-first-name',
            param_name: 'first_name',
            param_default_value: 'there',
            text_transform: {
              checkFormating: false,
              formatOptionKey: null,
              formatOptionName: null,
            },
          },
        ],
      },
    ],
  };
}

/**
 * Seeds the database and the assets bucket if empty.
 * @returns true if it seeded, false if the data was already there.
 * @throws Error when run against AWS (`STAGE=aws`).
 */
export async function seed(log: (line: string) => void = console.log): Promise<boolean> {
  if (config().STAGE === 'aws')
    throw new Error('The demo seed is local only; refusing to run with STAGE=aws.');
  const { library } = await installLibrary(log);
  // Plans are configuration (functions/billing/plans.ts): written on every start, so a
  // persisted database follows the catalogue and the STRIPE_PRICES of the environment.
  await writePlans();
  const { User, Team, Membership, Design } = db();
  const existing = await User.get({ userId: IDS.demo }).go();
  if (existing.data) {
    // Data seeded before e-mail claims existed gets them now, so nobody can re-register the
    // demo addresses.
    await db()
      .EmailClaim.put([
        { email: 'admin@example.com', userId: IDS.admin },
        { email: 'demo@example.com', userId: IDS.demo },
      ])
      .go();
    return false;
  }
  log('Seeding demo data…');

  const passwordHash = await hashPassword('demo-password');
  await User.put([
    {
      userId: IDS.admin,
      email: 'admin@example.com',
      name: 'Ada Admin',
      passwordHash,
      isAdmin: true,
      currentTeamId: IDS.adminTeam,
    },
    {
      userId: IDS.demo,
      email: 'demo@example.com',
      name: 'Dana Demo',
      passwordHash,
      isAdmin: false,
      currentTeamId: IDS.demoTeam,
    },
  ]).go();
  await db()
    .EmailClaim.put([
      { email: 'admin@example.com', userId: IDS.admin },
      { email: 'demo@example.com', userId: IDS.demo },
    ])
    .go();
  await Team.put([
    {
      teamId: IDS.demoTeam,
      name: 'Demo Team',
      slug: 'demo-team',
      ownerId: IDS.demo,
      planId: IDS.proPlan,
    },
    {
      teamId: IDS.adminTeam,
      name: 'Platform Admins',
      slug: 'platform-admins',
      ownerId: IDS.admin,
      planId: IDS.freePlan,
    },
  ]).go();
  await Membership.put([
    { teamId: IDS.demoTeam, userId: IDS.demo, role: 'owner' },
    { teamId: IDS.adminTeam, userId: IDS.admin, role: 'owner' },
  ]).go();

  const autumn = library.get('autumn.jpg');
  if (!autumn) throw new Error('autumn.jpg is missing from infra/seed/photos');
  await Design.put({
    designId: IDS.demoDesign,
    teamId: IDS.demoTeam,
    publicId: DEMO_PUBLIC_ID,
    title: 'Welcome',
    status: 'active',
    version: 1,
    document: DesignDocumentSchema.parse(demoDesignDocument(autumn)),
  }).go();
  log('  users, teams, plans and the demo design');
  // Test stacks start without templates: their tests make the templates they check
  // (docs/adr/0025-templates-and-bundles.md "Seeded templates").
  if (!process.env.VITEST) {
    await seedTemplates(library, IDS.adminTeam, IDS.demoTeam, log);
    // One announcement, so a newcomer sees the bell's marker and the panel (docs/notifications.md).
    await db()
      .Announcement.create({
        announcementId: 'announcement-welcome',
        // Every user reads it, new ones too: it points to what each of them has, not the demo's
        // design.
        body: "Welcome to **PicSnippets**! Start a design from a photo or a template, type `{{first_name}}` in a text, and its render URL draws each recipient's name.",
        actionText: 'Create a design',
        actionUrl: new URL('/pic-snippet/create', config().PUBLIC_URL).href,
        icon: 'megaphone',
        authorId: IDS.admin,
      })
      .go();
    log('  a welcome announcement');
  }
  return true;
}
