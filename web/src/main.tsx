import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { queryClient } from './state/queryClient.ts';
import { router } from './router.tsx';
import { useAppStore } from './state/store.ts';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// Who is signed in, asked once at start; the header shows the loading state until then.
void useAppStore.getState().loadSession();

// Signed in again after a 401 (the session-expired modal): the reads that failed meanwhile are
// asked again, so their lists come back by themselves.
useAppStore.subscribe((state, previous) => {
  if (previous.sessionExpired && !state.sessionExpired) {
    void queryClient.refetchQueries({
      type: 'active',
      predicate: (query) => query.state.status === 'error',
    });
  }
});

// `useTransitions={false}`: a navigation renders the new page in one piece, not as a
// transition that keeps the old page on screen, and taking input, while the new one renders in
// slices (on a slow machine for hundreds of ms): what a user typed into the old page's form in
// that time was lost with it (docs/adr/0039-forms-keep-what-is-typed-while-a-page-settles.md "Forms
// keep what is typed while a page settles").
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} useTransitions={false} />
    </QueryClientProvider>
  </StrictMode>,
);
