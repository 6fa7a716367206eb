// ESLint flat config: typescript-eslint everywhere, react-hooks and jsx-a11y for the SPA,
// eslint-plugin-regexp for every regex, import-x for the module boundaries (docs/decisions.md
// "Module boundaries"); zero warnings (npm run lint passes --max-warnings 0).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import regexp from 'eslint-plugin-regexp';
import globals from 'globals';
import vitest from '@vitest/eslint-plugin';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y-x';

/**
 * The public surface of each feature (docs/decisions.md "Module boundaries"): the only modules of
 * `functions/<feature>/` that another feature may import. Everything else in a feature folder,
 * its `handler.ts` above all, is private to it. Code that several features need and that belongs
 * to none goes to functions/lib (server) or shared/ (server and SPA) instead of growing a list.
 */
const FEATURE_PUBLIC_MODULES = {
  // Campaign analytics (docs/analytics.md): the report is served by designs' route, the
  // roll-up run by analytics-rollup.
  analytics: ['campaign-report.ts', 'cdn-log.ts', 'report.ts', 'rollup.ts'],
  auth: ['registration.ts'],
  billing: [
    'account.ts',
    'customers.ts',
    'errors.ts',
    'invoices.ts',
    'payment-methods.ts',
    'registration.ts',
    'seats.ts',
    'subscriptions.ts',
    'team-deletion.ts',
  ],
  bundles: ['store.ts', 'views.ts'],
  // A team's data sources (docs/data-sources.md): routes served by merge-tags, lookups by render.
  'data-sources': ['resolve.ts', 'routes.ts'],
  designs: ['create.ts', 'lists.ts', 'store.ts', 'team-renders.ts', 'usage.ts', 'views.ts'],
  fonts: ['list.ts'],
  images: ['library.ts'],
  // The daily snapshot job, run by the kiosk-snapshot function (docs/kiosk.md).
  kiosk: ['snapshot.ts'],
  'merge-tags': ['provider-http.ts'],
  // mail-proxies.ts: the proxies' user-agent fragments, also analytics' clients.
  render: [
    'browser.ts',
    'dynamic.ts',
    'mail-proxies.ts',
    'prerender.ts',
    'rule-context.ts',
    'service.ts',
    'signature.ts',
    'svg.ts',
  ],
  screenshot: ['capture.ts'],
  // The streaming CSV/XLSX readers, shared with data stores (docs/decisions.md "Data sources").
  'send-lists': ['csv.ts', 'limits.ts', 'rows.ts', 'xlsx.ts'],
  stickers: ['kiosk-packs.ts', 'schemas.ts', 'uploads.ts'],
  teams: ['members.ts'],
  templates: ['admin.ts', 'catalogue.ts'],
};

/**
 * Every feature folder of functions/. Not features: functions/lib (the platform: config, clients,
 * the table, HTTP, logging, queues, the SSRF guard) and functions/domain (services several
 * features share: notifications, team webhooks, mail templates, signing secrets, team
 * permissions, sign-ins).
 */
const FEATURES = readdirSync(new URL('./functions/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'lib' && entry.name !== 'domain')
  .map((entry) => entry.name);

const BOUNDARIES = 'docs/decisions.md "Module boundaries"';

/** `import-x/no-restricted-paths` zones; paths are relative to the repository root. */
const BOUNDARY_ZONES = [
  // A feature imports its own modules, functions/lib and functions/domain, and other features'
  // public modules only.
  ...FEATURES.map((feature) => ({
    target: `./functions/${feature}`,
    from: './functions',
    except: [
      `./${feature}`,
      './lib',
      './domain',
      ...Object.entries(FEATURE_PUBLIC_MODULES)
        .filter(([owner]) => owner !== feature)
        .flatMap(([owner, modules]) => modules.map((module) => `./${owner}/${module}`)),
    ],
    message: `functions/${feature} may import another feature only through its public modules (FEATURE_PUBLIC_MODULES in eslint.config.js; ${BOUNDARIES}).`,
  })),
  {
    target: './functions/lib',
    from: './functions',
    except: ['./lib'],
    message: `functions/lib is the platform, below the domain services and the features, and imports none of them (${BOUNDARIES}).`,
  },
  {
    target: './functions/domain',
    from: './functions',
    except: ['./domain', './lib'],
    message: `functions/domain is below the features and imports none of them (${BOUNDARIES}).`,
  },
  {
    target: './functions',
    from: './infra',
    message: `functions/ never imports infra/: put what both need in shared/ or functions/lib (${BOUNDARIES}).`,
  },
  {
    target: './shared',
    from: ['./functions', './infra', './web'],
    message: `shared/ imports only shared/ and packages (${BOUNDARIES}).`,
  },
  {
    target: './web/src',
    from: ['./functions', './infra'],
    message: `The SPA reaches the server through the API and shared/, never functions/ or infra/ (${BOUNDARIES}).`,
  },
];

/**
 * The public surface of each SPA feature (docs/decisions.md "Module boundaries"): the only modules
 * of `web/src/features/<feature>/` that another feature may import. Pieces every feature uses (a
 * list footer, a load failure, the current team) live in web/src/components, hooks, lib or api,
 * never in a feature that others then lean on.
 */
const WEB_FEATURE_PUBLIC_MODULES = {
  // The CSV writer of the analytics page, also the polls' votes download; the report's figures
  // on the dashboard cards.
  analytics: ['csv.ts', 'report.ts'],
  // Registration's plan step reuses billing's plan, card, address and coupon parts; the settings
  // page shows the subscription panel; the kiosk formats money as billing does.
  billing: [
    'BillingAddressFields.tsx',
    'CardField.tsx',
    'CouponNote.tsx',
    'PlanPicker.tsx',
    'SubscriptionPanel.tsx',
    'billingDetails.ts',
    'format.ts',
    'hooks.ts',
    'plans.ts',
  ],
  // The design viewer (export's preview) and the template admin (the editor's save modal).
  dashboard: ['DesignViewer.tsx', 'useTemplateAdmin.ts'],
  // The export's rows model, which the send-list form reads for its parameter names.
  export: ['model.ts'],
  // The font catalogue and loader, which the editor's font picker uses.
  fonts: ['api.ts', 'index.ts', 'loadFont.ts'],
  // The API token list, also the kiosk's view of a user's tokens.
  settings: ['ApiTokensSection.tsx'],
  // The save modal's template state, shared by the editor's save flow; the template cards'
  // styles, also the dashboard's bundles and the editor's templates panel.
  templates: ['saveModalState.ts', 'templates.css'],
};

/** Every feature folder of web/src/features/. */
const WEB_FEATURES = readdirSync(new URL('./web/src/features/', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The SPA's zones (see BOUNDARY_ZONES). */
const WEB_BOUNDARY_ZONES = [
  ...WEB_FEATURES.map((feature) => ({
    target: `./web/src/features/${feature}`,
    from: './web/src/features',
    except: [
      `./${feature}`,
      ...Object.entries(WEB_FEATURE_PUBLIC_MODULES)
        .filter(([owner]) => owner !== feature)
        .flatMap(([owner, modules]) => modules.map((module) => `./${owner}/${module}`)),
    ],
    message: `web/src/features/${feature} may import another feature only through its public modules (WEB_FEATURE_PUBLIC_MODULES in eslint.config.js; ${BOUNDARIES}).`,
  })),
  {
    target: ['./web/src/hooks', './web/src/lib', './web/src/api', './web/src/state'],
    from: ['./web/src/features', './web/src/pages'],
    message: `web/src/hooks, lib, api and state are below the features and pages (${BOUNDARIES}).`,
  },
  {
    target: './web/src/components',
    from: './web/src/pages',
    message: `web/src/components are shared parts below the pages (${BOUNDARIES}).`,
  },
  {
    target: './web/src/components',
    from: './web/src/features',
    // The app's frame composes features: the header's bell and support button, the sign-in form
    // of the session-expired modal, the impersonation banner's stop.
    except: [
      './notifications/NotificationBell.tsx',
      './notifications/SupportModal.tsx',
      './auth/SignInForm.tsx',
      './kiosk/users/api.ts',
    ],
    message: `web/src/components are shared parts below the features; only the app frame composes them (${BOUNDARIES}).`,
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'cdk.out/**',
      '.local/**',
      'bench-results/**',
      'functions/render/page/dist/**',
      'web/public/vendor/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  regexp.configs['flat/recommended'],
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Every regex linear (docs/decisions.md "Render slice": "Hostile input is bounded"; docs/security.md "Linear
      // regular expressions"): no backtracking within a match, no quadratic moves across
      // start positions.
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
      // Style only (how a character class is spelled, unused groups): off.
      'regexp/prefer-w': 'off',
      'regexp/prefer-d': 'off',
      'regexp/negation': 'off',
      'regexp/use-ignore-case': 'off',
      'regexp/match-any': 'off',
      'regexp/no-unused-capturing-group': 'off',
    },
  },
  {
    // Module boundaries (docs/decisions.md "Module boundaries"): no runtime import cycle (type-only
    // imports are erased, so they may go both ways), and the zones above. Imports resolve as Node
    // does (package `imports` for #shared/#lib/#functions/#infra, explicit .ts extensions).
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [createNodeResolver()],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        { basePath: import.meta.dirname, zones: [...BOUNDARY_ZONES, ...WEB_BOUNDARY_ZONES] },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'functions/render/page/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    // Accessibility of the SPA's JSX: the recommended rules of eslint-plugin-jsx-a11y, through
    // its ESLint 10 fork (same rules; the original's peer range stops at ESLint 9).
    ...jsxA11y.configs.recommended,
    files: ['web/src/**/*.tsx'],
  },
  {
    // Tests that can fail (docs/decisions.md "Test lint"): nothing focused or skipped, every test
    // asserts (directly or through the suite's assertion helpers), every expect is complete.
    // The SPA's component tests and their helpers too (vitest's `component` project).
    files: ['test/**/*.ts', '**/*.test.ts', 'web/src/**/*.test.tsx', 'web/src/test/**/*.{ts,tsx}'],
    plugins: { vitest },
    rules: {
      'vitest/no-focused-tests': 'error',
      'vitest/no-disabled-tests': 'error',
      // vitest's expect takes a message as its second argument.
      'vitest/valid-expect': ['error', { maxArgs: 2 }],
      'vitest/expect-expect': [
        'error',
        {
          assertFunctionNames: [
            'expect',
            'expect*',
            'assert*',
            'check*',
            'poll*',
            'refused*',
            // Waits that fail the test when what they wait for never comes.
            'waitFor*',
            'findBy*',
            'page.waitForFunction',
            // CDK's Template assertions.
            'template.hasResourceProperties',
            'template.resourceCountIs',
          ],
        },
      ],
    },
  },
  {
    // The browser-only scene modules (fabric objects and filters) draw in the editor and in the
    // render page inside Chromium; a Lambda or the CDK app that imports them at run time pulls
    // fabric into its bundle and cold start. Their types may be read (docs/decisions.md "Module
    // boundaries").
    files: ['functions/**/*.ts', 'infra/**/*.ts'],
    ignores: ['functions/render/page/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'fabric',
              message: 'fabric runs in the browser only: the editor and the render page.',
              allowTypeImports: true,
            },
          ],
          patterns: [
            {
              regex: 'scene/(draw|filters)\\.ts$',
              message:
                'shared/scene/draw.ts and filters.ts build fabric objects: browser only (the editor, the render page).',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // Not linear yet, and seeing only trusted or the typing user's own text: the seed's installed
    // font package names, and the registration form's team slug of what the user types (the
    // server's teamSlug is linear).
    files: ['infra/local/seed-fonts.ts', 'web/src/features/registration/account.ts'],
    rules: {
      'regexp/no-super-linear-backtracking': 'off',
      'regexp/no-super-linear-move': 'off',
      'regexp/optimal-quantifier-concatenation': 'off',
    },
  },
);
