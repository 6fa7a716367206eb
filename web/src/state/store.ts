/**
 * The app's one zustand store, built from slices (zustand docs, "slices pattern"). Each slice
 * keeps its actions beside its state; components read it through fine-grained selectors, e.g.
 * `useAppStore((s) => s.user)`.
 */
import { create } from 'zustand';
import { onUnauthorized } from '../api/client.ts';
import { createSessionSlice, type SessionSlice } from './session.ts';

export type AppState = SessionSlice;

export const useAppStore = create<AppState>()((...args) => ({
  ...createSessionSlice(...args),
}));

// docs/adr/0040-session-expiry-keeps-the-work.md "Session expiry keeps the work": a 401 from any
// call logs the client out and opens the session-expired modal.
onUnauthorized(() => useAppStore.getState().expireSession());
