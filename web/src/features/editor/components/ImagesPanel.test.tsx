/**
 * The image search of the Images panel's Library and My Uploads tabs (./ImagesPanel.tsx;
 * docs/editor.md "Images panel", "Constants": 700 ms image search): the list is asked again
 * with `?search=` only once typing has paused, a search that finds nothing says so with the
 * words typed, and clearing it shows every image again.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Image } from '#shared/contract/images.ts';
import { renderInEditor } from '../../../test/EditorTestProviders.tsx';
import { answer } from '../../../test/api.ts';
import { aUser } from '../../../test/fixtures.ts';
import { IMAGE_SEARCH_DEBOUNCE_MS, ImagesPanel } from './ImagesPanel.tsx';

const image = (id: string, title: string): Image => ({
  id,
  title,
  thumb: `/files/${id}.jpg`,
  url: `/files/${id}.jpg`,
  width: 1000,
  height: 750,
  author: null,
  author_url: null,
  licence: null,
});
const page = (data: Image[]) => ({ data, current_page: 1, last_page: 1 });
const AUTUMN = image('autumn', 'Autumn');
const KITE = image('kite', 'Kite');

const shown = async () =>
  within(await screen.findByRole('list', { name: 'Images' }))
    .queryAllByRole('button', { name: /^Use / })
    .map((b) => b.getAttribute('aria-label'));

/** Lets the fake clock run `ms` (and what the answers it releases do). */
const wait = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });

afterEach(() => {
  vi.useRealTimers();
});

describe('the image search', () => {
  it('asks the library for the words typed once typing pauses for 700 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const everything = answer('GET /getGlobalImages', 200, page([AUTUMN, KITE]));
    renderInEditor(<ImagesPanel />, { signedInAs: aUser() });
    expect(await shown()).toEqual(['Use Autumn', 'Use Kite']);
    expect(everything.requests.map((r) => r.query.get('search'))).toEqual([null]);
    const search = screen.getByRole('searchbox', { name: 'Search the library' });

    const found = answer('GET /getGlobalImages', 200, page([KITE]));
    fireEvent.change(search, { target: { value: 'ki' } });
    await wait(IMAGE_SEARCH_DEBOUNCE_MS - 300);
    fireEvent.change(search, { target: { value: 'kite ' } });
    await wait(IMAGE_SEARCH_DEBOUNCE_MS - 100);
    // Still typing: nothing asked yet, the list unchanged.
    expect(found.requests).toHaveLength(0);
    expect(await shown()).toEqual(['Use Autumn', 'Use Kite']);
    await wait(200);
    expect(await shown()).toEqual(['Use Kite']);
    // The words as typed last (trimmed), never the half-typed "ki", from the first page.
    expect(new Set(found.requests.map((r) => r.query.get('search')))).toEqual(new Set(['kite']));
    expect(found.requests[0]?.query.get('page')).toBe('1');
  });

  it('says when nothing matches, and clearing the search shows every upload again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    answer('GET /getGlobalImages', 200, page([]));
    answer('GET /getImages', 200, page([AUTUMN, KITE]));
    renderInEditor(<ImagesPanel />, { signedInAs: aUser() });
    fireEvent.click(screen.getByRole('tab', { name: 'My Uploads' }));
    expect(await shown()).toEqual(['Use Autumn', 'Use Kite']);

    const uploads = answer('GET /getImages', 200, page([]));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search my uploads' }), {
      target: { value: 'beach party' },
    });
    await wait(IMAGE_SEARCH_DEBOUNCE_MS);
    expect(new Set(uploads.requests.map((r) => r.query.get('search')))).toEqual(
      new Set(['beach party']),
    );
    const status = await screen.findByText('No images match “beach party”.');
    expect(status.closest('[role="status"]')).not.toBeNull();

    answer('GET /getImages', 200, page([AUTUMN, KITE]));
    fireEvent.click(screen.getByRole('button', { name: 'Show all images' }));
    expect(await shown()).toEqual(['Use Autumn', 'Use Kite']);
    expect(
      (screen.getByRole('searchbox', { name: 'Search my uploads' }) as HTMLInputElement).value,
    ).toBe('');
    expect(screen.queryByText(/No images match/)).toBeNull();
  });

  it('offers Clear search while the box holds words', async () => {
    answer('GET /getGlobalImages', 200, page([AUTUMN]));
    renderInEditor(<ImagesPanel />, { signedInAs: aUser() });
    const search = screen.getByRole('searchbox', { name: 'Search the library' });
    expect(screen.queryByRole('button', { name: 'Clear search' })).toBeNull();
    fireEvent.change(search, { target: { value: 'autumn' } });
    fireEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect((search as HTMLInputElement).value).toBe('');
  });
});
