// ESLint flat config: typescript-eslint everywhere, react-hooks for the SPA, eslint-plugin-regexp
// for every regex; zero warnings (npm run lint passes --max-warnings 0).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import regexp from 'eslint-plugin-regexp';
import globals from 'globals';
import vitest from '@vitest/eslint-plugin';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'cdk.out/**',
      '.local/**',
      'bench-results/**',
      'functions/render/page/dist/**',
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
      // Every regex linear (DESIGN.md §5 "Hostile input is bounded"; docs/security.md "Linear
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
    files: ['web/**/*.{ts,tsx}', 'functions/render/page/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    // Tests that can fail (docs/decisions.md "Test lint"): nothing focused or skipped, every test
    // asserts (directly or through the suite's assertion helpers), every expect is complete.
    files: ['test/**/*.ts', '**/*.test.ts'],
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
