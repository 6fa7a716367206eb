/**
 * Rendering a component as the app renders it (web/src/main.tsx): in React's StrictMode, under
 * a TanStack QueryClient and a react-router data router, with the app store's session set as the
 * test says. The named export is the providers' component; tests use {@link renderWithProviders}.
 */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import { userEvent, type UserEvent } from '@testing-library/user-event';
import { StrictMode, type ReactElement, type ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import type { CurrentUser } from '#shared/contract/auth.ts';
import { createQueryClient } from '../state/queryClient.ts';
import { useAppStore } from '../state/store.ts';

/**
 * A QueryClient with the app's defaults (web/src/state/queryClient.ts `createQueryClient`:
 * no refetch on focus, requests sent even "offline", writes never retried) and no retries of
 * reads either, so a failed read shows its failure at once instead of after the 0.5 s and 1 s
 * backoff.
 */
export function testQueryClient(): QueryClient {
  const client = createQueryClient();
  const defaults = client.getDefaultOptions();
  client.setDefaultOptions({
    ...defaults,
    queries: { ...defaults.queries, retry: false },
    mutations: { ...defaults.mutations, retry: false },
  });
  return client;
}

/**
 * Puts the session in the app store (web/src/state/session.ts) as if `GET /user/current` had
 * answered: `user` signed in, or `null` signed out. ./setup.ts puts the store back after each
 * test.
 */
export function signInAs(user: CurrentUser | null): void {
  useAppStore.setState({
    sessionStatus: 'ready',
    user,
    sessionError: null,
    sessionExpired: false,
  });
}

/** The providers of the app around `children`: StrictMode and the query client. */
export function TestProviders({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <StrictMode>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </StrictMode>
  );
}

/** Where a test's navigation went, when the rendered route does not match it. */
function ElsewherePage() {
  const location = useLocation();
  return <p data-testid="elsewhere">{`${location.pathname}${location.search}${location.hash}`}</p>;
}

/** How {@link renderWithProviders} sets the scene. */
export interface RenderOptions {
  /**
   * The address the page is at: a path with its query and hash, or a location with the history
   * state a navigation left (`{ pathname: '/login', state: { passwordReset: true } }`); `/`
   * unless given.
   */
  route?: string | { pathname: string; search?: string; hash?: string; state?: unknown };
  /**
   * The route pattern `ui` is mounted on (`/settings/companies/:teamId`), so `useParams` reads
   * its parameters; any address unless given. Other addresses show a stand-in page.
   */
  path?: string;
  /** The signed-in user, or `null` for signed out; the store's state is left alone unless given. */
  signedInAs?: CurrentUser | null;
  /** The query client; a fresh {@link testQueryClient} unless given. */
  queryClient?: QueryClient;
}

/** What {@link renderWithProviders} gives a test. */
export interface Rendered extends RenderResult {
  /** user-event's session: types, clicks and presses keys as a user does (awaited). */
  user: UserEvent;
  /** The in-memory router: `router.state.location` is where the app navigated to. */
  router: ReturnType<typeof createMemoryRouter>;
  queryClient: QueryClient;
}

/**
 * Renders `ui` as a page of the app: StrictMode, a fresh QueryClient (reads not retried), and an
 * in-memory router at `options.route`. The router is a data router (`createMemoryRouter`, the
 * in-memory form of web/src/router.tsx's `createBrowserRouter`, what `MemoryRouter` is to
 * `BrowserRouter`), since components use the hooks only a data router has (`useBlocker` in
 * web/src/components/UnsavedChangesPrompt.tsx).
 * @returns Testing Library's queries for the page, `user` to act, the router and the client.
 */
export function renderWithProviders(ui: ReactElement, options: RenderOptions = {}): Rendered {
  if (options.signedInAs !== undefined) signInAs(options.signedInAs);
  const queryClient = options.queryClient ?? testQueryClient();
  const router = createMemoryRouter(
    [
      { path: options.path ?? '*', element: ui },
      ...(options.path ? [{ path: '*', element: <ElsewherePage /> }] : []),
    ],
    { initialEntries: [options.route ?? '/'] },
  );
  const user = userEvent.setup();
  const result = render(
    <TestProviders client={queryClient}>
      <RouterProvider router={router} />
    </TestProviders>,
  );
  return { ...result, user, router, queryClient };
}
