/**
 * Every TanStack Query key of the SPA, in one place so reads and invalidations agree
 * (docs/adr/0045-server-state.md "Server state"). Keys are arrays from the general to the
 * particular: the first element names a family (`designs`, `teams`, `billing`, …), so
 * `invalidateQueries({ queryKey: queryKeys.designs.all })` reaches every list of that family. Data
 * of one team (its designs, uploads, bundles, billing) carries the team id, so a team switch reads
 * the other team's data instead of showing the cached one of the team left.
 */
import type { DashboardView, DesignSort } from '../api/designs.ts';

/** The sticker lists: a tab, or one pack's stickers (features/editor/stickersApi.ts). */
type StickerSourceKey = { kind: string; id?: string };

export const queryKeys = {
  designs: {
    all: ['designs'] as const,
    /** A dashboard list (Active or Archive) of a team, paged. */
    list: (
      teamId: string,
      view: Exclude<DashboardView, 'templates'>,
      sort: DesignSort,
      tag: string,
    ) => ['designs', 'list', teamId, view, sort, tag] as const,
    /** One design as a page about it shows it (the show page, the editor, the export screen). */
    one: (what: string, id: string) => ['designs', 'one', id, what] as const,
  },
  templates: {
    all: ['templates'] as const,
    /** The dashboard's template list, enabled (`active`) or disabled, paged. */
    list: (status: 'active' | 'archived', sort: DesignSort, tag: string) =>
      ['templates', 'list', status, sort, tag] as const,
    /** The editor's Templates panel, Global tab, paged. */
    panel: (search: string) => ['templates', 'panel', search] as const,
    /** The save modal's related tags: of the templates with `tag`, or for the image `imageId`. */
    related: (tag: string, imageId: string) => ['templates', 'related', tag, imageId] as const,
  },
  bundles: {
    all: ['bundles'] as const,
    /** The team's bundles (all bundles for an admin), paged: the Template Bundles tab. */
    pages: (teamId: string) => ['bundles', 'team', teamId, 'pages'] as const,
    /** The first page of the team's bundles: Bonus templates. */
    first: (teamId: string) => ['bundles', 'team', teamId, 'first'] as const,
    /** The Templates panel's Bonus tab, searched. */
    panel: (teamId: string, search: string) =>
      ['bundles', 'team', teamId, 'panel', search] as const,
    one: (bundleId: string) => ['bundles', 'one', bundleId] as const,
    /** The teams a bundle is assigned to (the add-teams modal). */
    teams: (bundleId: string) => ['bundles', 'one', bundleId, 'teams'] as const,
  },
  images: {
    all: ['images'] as const,
    /** The global picture library of the create page, paged. */
    picker: ['images', 'picker'] as const,
    /**
     * The editor's Images panel: the library, or the team's uploads, paged; with a search, its
     * results (without `search`: every list of the source, for invalidation).
     */
    list: (teamId: string, source: 'library' | 'uploads', search?: string) => [
      ...(source === 'library'
        ? (['images', 'library'] as const)
        : (['images', 'uploads', teamId] as const)),
      ...(search === undefined ? [] : [search]),
    ],
    /** A stock photo search, paged. */
    stock: (query: string) => ['images', 'stock', query] as const,
    /** Whether stock search is configured on this server. */
    stockConfigured: ['images', 'stock-configured'] as const,
  },
  stickers: {
    all: ['stickers'] as const,
    /** A sticker tab or pack of the team, searched, paged. */
    list: (teamId: string, source: StickerSourceKey, search: string) =>
      ['stickers', teamId, source.kind, source.id ?? '', search] as const,
  },
  teams: {
    all: ['teams'] as const,
    /** The user's teams (`GET /settings/companies`). */
    list: ['teams', 'list'] as const,
    /** One team with its members. */
    one: (teamId: string) => ['teams', 'one', teamId] as const,
    /** A team's pending invitations (its owner and admins see them). */
    invitations: (teamId: string) => ['teams', 'one', teamId, 'invitations'] as const,
    /** The current team's flags (frozen, PDF export); `teamId` is the session's current team. */
    current: (teamId: string) => ['teams', 'current', teamId] as const,
    /** The admin's team search (the add-teams modal). */
    search: (query: string) => ['teams', 'search', query] as const,
  },
  /** The font picker's lists: the server's groups and the team's uploaded fonts. */
  fonts: (teamId: string) => ['fonts', teamId] as const,
  /** What an invitation link's `code` says to a visitor (registration). */
  invitation: (code: string) => ['invitation', code] as const,
  sendLists: {
    /** A design's send-list jobs, newest first. */
    jobs: (designId: string) => ['send-lists', designId] as const,
    /** One job, polled while it works. */
    job: (designId: string, jobId: string) => ['send-lists', designId, jobId] as const,
  },
  notifications: {
    all: ['notifications'] as const,
    /** The first page with the announcements and unread flags: the bell's marker (polled). */
    recent: ['notifications', 'recent'] as const,
    /** The panel's notifications, paged by cursor. */
    pages: ['notifications', 'pages'] as const,
  },
  /** The server's health (the status page). */
  health: ['health'] as const,
  /** The invitations the user may answer, with the one of the e-mailed link's `code`. */
  invitations: (code: string) => ['invitations', code] as const,
  tokens: ['tokens'] as const,
  reference: {
    roles: ['reference', 'roles'] as const,
    abilities: ['reference', 'abilities'] as const,
    plans: ['reference', 'plans'] as const,
  },
  billing: {
    all: ['billing'] as const,
    /** Everything read about a team's billing; `teamId` is its own id, also for the user paths. */
    team: (teamId: string) => ['billing', teamId] as const,
    /** The subscription panel's view of a team (the view, or why there is none). */
    subscription: (teamId: string) => ['billing', teamId, 'subscription'] as const,
    /** The card-update page's view of a team. */
    cardUpdate: (teamId: string) => ['billing', teamId, 'card-update'] as const,
    invoices: (teamId: string) => ['billing', teamId, 'invoices'] as const,
    /** A PaymentIntent to confirm (the payment-confirmation page). */
    payment: (paymentId: string) => ['billing', 'payment', paymentId] as const,
    /** Stripe.js loaded with a publishable key. */
    stripe: (publishableKey: string) => ['billing', 'stripe', publishableKey] as const,
    /** The visitor's country (the billing form's first country). */
    country: ['billing', 'country'] as const,
    /** A coupon code's lookup. */
    coupon: (code: string) => ['billing', 'coupon', code] as const,
    /** A VAT preview of one request (country, zip, VAT id, plan). */
    tax: (request: string) => ['billing', 'tax', request] as const,
  },
} as const;
