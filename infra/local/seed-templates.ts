/**
 * Seeds the template library (docs/templates.md): seven enabled templates, one or more for each
 * onboarding use case's tag (shared/onboarding.ts), on the
 * seeded photos, each with text snippets that carry merge fields and tags, owned by the admin's
 * team, and the bundle "Demo Bonus" holding two of them, assigned to the demo team, so a fresh
 * `npm start` shows templates on the dashboard and the Bonus tab in the editor.
 *
 * Local only, called from the demo seed (infra/local/seed.ts) on an empty database.
 */
import { db } from '#lib/db/index.ts';
import { DesignDocumentSchema, type DesignDocumentInput } from '#shared/design.ts';

/** A photo of the global library (infra/deploy/install-library.ts `installPhotos`). */
export interface SeededPhoto {
  key: string;
  width: number;
  height: number;
}

/** Ids of the seeded templates and bundle (stable, for tests and links). */
export const TEMPLATE_IDS = {
  garden: 'design-template-garden',
  kite: 'design-template-kite',
  water: 'design-template-water',
  path: 'design-template-path',
  flower: 'design-template-flower',
  autumn: 'design-template-autumn',
  ladybird: 'design-template-ladybird',
  bundle: 'bundle-demo-bonus',
} as const;

interface TemplateSeed {
  designId: string;
  publicId: string;
  photo: string;
  title: string;
  tags: string[];
  /** Lines of text snippets: text, font size (px), colour, vertical position (0–1 of the height). */
  lines: { text: string; size: number; fill: string; at: number; param?: [string, string] }[];
}

const SEEDS: TemplateSeed[] = [
  {
    designId: TEMPLATE_IDS.garden,
    publicId: 'tpl-garden',
    photo: 'garden.jpg',
    title: 'Spring sale',
    tags: ['ecommerce', 'sale', 'spring'],
    lines: [
      { text: 'Spring sale', size: 72, fill: '#ffffff', at: 0.3 },
      {
        text: '{{first_name}}, 20% off for you',
        size: 40,
        fill: '#fef3c7',
        at: 0.55,
        param: ['first_name', 'Friend'],
      },
    ],
  },
  {
    designId: TEMPLATE_IDS.kite,
    publicId: 'tpl-kite',
    photo: 'kite.jpg',
    title: 'Webinar invitation',
    tags: ['webinars', 'invitation'],
    lines: [
      {
        text: 'See you live, {{first_name}}!',
        size: 56,
        fill: '#ffffff',
        at: 0.35,
        param: ['first_name', 'there'],
      },
      { text: 'Thursday 6 pm', size: 36, fill: '#e0f2fe', at: 0.6 },
    ],
  },
  {
    designId: TEMPLATE_IDS.water,
    publicId: 'tpl-water',
    photo: 'by-the-water.jpg',
    title: 'Coaching welcome',
    tags: ['coaching', 'welcome'],
    lines: [
      {
        text: 'Welcome aboard, {{first_name}}',
        size: 60,
        fill: '#ffffff',
        at: 0.4,
        param: ['first_name', 'friend'],
      },
    ],
  },
  {
    designId: TEMPLATE_IDS.path,
    publicId: 'tpl-path',
    photo: 'path.jpg',
    title: 'Course certificate',
    tags: ['training', 'certificate'],
    lines: [
      { text: 'Certificate of completion', size: 48, fill: '#ffffff', at: 0.3 },
      {
        text: '{{first_name}}',
        size: 72,
        fill: '#fef9c3',
        at: 0.52,
        param: ['first_name', 'Learner'],
      },
    ],
  },
  {
    designId: TEMPLATE_IDS.flower,
    publicId: 'tpl-flower',
    photo: 'yellow-flower.jpg',
    title: 'Store invitation',
    tags: ['store', 'invitation', 'coupon'],
    lines: [
      {
        text: '{{first_name}}, come and see us',
        size: 52,
        fill: '#ffffff',
        at: 0.35,
        param: ['first_name', 'Neighbour'],
      },
      { text: 'Show this image at the till: 10% off', size: 34, fill: '#fef3c7', at: 0.6 },
    ],
  },
  {
    designId: TEMPLATE_IDS.autumn,
    publicId: 'tpl-autumn',
    photo: 'autumn.jpg',
    title: 'Your free guide',
    tags: ['leads', 'guide'],
    lines: [
      {
        text: '{{first_name}}, your guide is ready',
        size: 52,
        fill: '#ffffff',
        at: 0.35,
        param: ['first_name', 'Hi'],
      },
      { text: 'Five ideas for this season', size: 36, fill: '#ffedd5', at: 0.58 },
    ],
  },
  {
    designId: TEMPLATE_IDS.ladybird,
    publicId: 'tpl-ladybird',
    photo: 'ladybird.jpg',
    title: 'Appointment reminder',
    tags: ['appointments', 'reminder'],
    lines: [
      {
        text: 'See you soon, {{first_name}}',
        size: 56,
        fill: '#ffffff',
        at: 0.35,
        param: ['first_name', 'there'],
      },
      { text: 'Your call is booked', size: 36, fill: '#dcfce7', at: 0.58 },
    ],
  },
];

/** The document of one seeded template: the photo 1000 px wide, white text with an outline. */
function templateDocument(seed: TemplateSeed, photo: SeededPhoto): DesignDocumentInput {
  const width = 1000;
  const height = Math.round((photo.height / photo.width) * width);
  return {
    schemaVersion: 1,
    image_id: `library-${seed.photo.replace(/\.jpg$/, '')}`,
    base_image_key: photo.key,
    canvas_width: width,
    canvas_height: height,
    image_tags: seed.tags,
    text_snippets: seed.lines.map((line, i) => ({
      id: `${seed.designId}-snippet-${i + 1}`,
      text: line.text,
      fontFamily: 'Noto Sans',
      fontWeight: 'bold',
      fontSize: line.size,
      minFontSize: Math.round(line.size / 2),
      fill: line.fill,
      stroke: '#1f2937',
      strokeWidth: 3,
      textAlign: 'center',
      left: 50,
      top: Math.round(height * line.at - line.size * 0.75),
      width: 900,
      parameters: line.param
        ? [
            {
              id: `${seed.designId}-param-${i + 1}`,
              param_name: line.param[0],
              param_default_value: line.param[1],
              text_transform: {
                checkFormating: false,
                formatOptionKey: null,
                formatOptionName: null,
              },
            },
          ]
        : [],
    })),
  };
}

/**
 * Writes the seeded templates and the demo bundle.
 * @param library the seeded photos by file name.
 * @param owner the team owning the templates (the admin's).
 * @param bonusTeam the team the demo bundle is assigned to.
 * @throws Error when a photo the templates use is missing from the library.
 */
export async function seedTemplates(
  library: ReadonlyMap<string, SeededPhoto>,
  owner: string,
  bonusTeam: string,
  log: (line: string) => void,
): Promise<void> {
  for (const seed of SEEDS) {
    const photo = library.get(seed.photo);
    if (!photo) throw new Error(`${seed.photo} is missing from infra/seed/photos`);
    await db()
      .Design.put({
        designId: seed.designId,
        teamId: owner,
        publicId: seed.publicId,
        title: seed.title,
        status: 'active',
        isTemplate: true,
        version: 1,
        document: DesignDocumentSchema.parse(templateDocument(seed, photo)),
      })
      .go();
  }
  await db()
    .TemplateBundle.put({
      bundleId: TEMPLATE_IDS.bundle,
      name: 'Demo Bonus',
      status: 'active',
      templateIds: [TEMPLATE_IDS.garden, TEMPLATE_IDS.kite],
      teamIds: [bonusTeam],
      version: 1,
    })
    .go();
  log(`  templates: ${SEEDS.length}, and the bundle "Demo Bonus" for ${bonusTeam}`);
}
