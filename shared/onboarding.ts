/**
 * Onboarding use cases (docs/adr/0016-onboarding.md "Onboarding": "Onboarding: step 1 picks a use
 * case, step 2 continues, step 3 redirects to a per-use-case address"). The spec gives the eight
 * keys (spelling kept, `phisicalStore` included: stored values must match) but not the addresses;
 * each address here opens the dashboard's template view filtered by the use case's tag, so a new
 * user starts from a design made for their job (docs/adr/0016-onboarding.md "Onboarding").
 */

export interface UseCase {
  /** The spec's key, stored on the user. */
  key: (typeof ONBOARDING_USE_CASES)[number];
  title: string;
  /** One line for the picker. */
  summary: string;
  /** Step 2: what the user will make, as three short ideas. */
  ideas: readonly [string, string, string];
  /** Template tag the step-3 address filters by. */
  tag: string;
}

export const ONBOARDING_USE_CASES = [
  'ecommerce',
  'coaching',
  'training',
  'phisicalStore',
  'leadWarming',
  'salesAppointment',
  'webinars',
  'welcome',
] as const;
export type UseCaseKey = (typeof ONBOARDING_USE_CASES)[number];

export const USE_CASES: readonly UseCase[] = [
  {
    key: 'ecommerce',
    title: 'E-commerce',
    summary: 'Order and cart e-mails with the buyer’s name on the product photo.',
    ideas: [
      'Thank-you images in Shopify order notifications',
      'Abandoned-cart reminders from Klaviyo',
      'A personal discount code on a product shot',
    ],
    tag: 'ecommerce',
  },
  {
    key: 'coaching',
    title: 'Coaching',
    summary: 'Personal welcome and progress images for each client.',
    ideas: [
      'A welcome card with the client’s first name',
      'Session reminders with the date on a calm photo',
      'Milestone images that celebrate progress',
    ],
    tag: 'coaching',
  },
  {
    key: 'training',
    title: 'Training and courses',
    summary: 'Course e-mails and certificates that carry the learner’s name.',
    ideas: [
      'A certificate image for every learner',
      'Lesson-unlocked e-mails with the course name',
      'A name badge for the first day',
    ],
    tag: 'training',
  },
  {
    key: 'phisicalStore',
    title: 'Physical store',
    summary: 'Invitations and coupons that bring people into your shop.',
    ideas: [
      'An in-store invitation with the guest’s name',
      'A QR coupon to scan at the till',
      'Opening-hours images for each branch',
    ],
    tag: 'store',
  },
  {
    key: 'leadWarming',
    title: 'Lead warming',
    summary: 'Nurture sequences that feel written for one person.',
    ideas: [
      'A first-touch e-mail image with the lead’s company',
      'A follow-up with their city or industry',
      'A screenshot of their own website in your pitch',
    ],
    tag: 'leads',
  },
  {
    key: 'salesAppointment',
    title: 'Sales appointments',
    summary: 'Booking confirmations and reminders people do not miss.',
    ideas: [
      'A confirmation with the prospect’s name and time',
      'A reminder with your photo as their host',
      'A no-show follow-up that stays friendly',
    ],
    tag: 'appointments',
  },
  {
    key: 'webinars',
    title: 'Webinars',
    summary: 'Invitations and reminders that get people to show up.',
    ideas: [
      'A seat-reserved image with the attendee’s name',
      'A countdown reminder on the day',
      'A replay e-mail for those who missed it',
    ],
    tag: 'webinars',
  },
  {
    key: 'welcome',
    title: 'Welcome messages',
    summary: 'Greet every new subscriber by name.',
    ideas: [
      'A welcome image in the first e-mail',
      'A chatbot greeting in ManyChat',
      'A video thumbnail that says their name',
    ],
    tag: 'welcome',
  },
];

/**
 * How the dashboard names a template tag: the title of the use case that filters by it
 * (`store` → "Physical store"), else the tag itself.
 */
export function tagLabel(tag: string): string {
  return USE_CASES.find((u) => u.tag === tag)?.title ?? tag;
}

/** Step 3's address for a use case: the dashboard's templates filtered by its tag. */
export function useCaseAddress(key: UseCaseKey): string {
  const useCase = USE_CASES.find((u) => u.key === key);
  return `/dashboard?view=templates&tag=${encodeURIComponent(useCase?.tag ?? key)}`;
}
