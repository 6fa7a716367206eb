/**
 * The editor's code (fabric, the panels, the toolbars: most of the route's script) as a chunk of
 * its own, whose import starts as soon as the editor page's small chunk runs, so its download
 * and start-up overlap the design request and the preloads (preload.ts) instead of coming
 * before them (docs/performance.md "Editor").
 *
 * Not `React.lazy` in a `Suspense` boundary: a lazy component suspends on its first render even
 * when its chunk has already arrived, and React then holds the boundary's content back until
 * 300 ms after its fallback appeared (the "fallback throttle" of retries), which idled the
 * editor's load for about 280 ms. The chunk is awaited here instead, and rendered at once when
 * it is in.
 */
import { useEffect, useState } from 'react';
import { PageLoading } from '../../components/Spinner.tsx';
import type * as EditorChunk from './Editor.tsx';
import type { LoadedDesign } from './store/designSlice.ts';

type EditorModule = typeof EditorChunk;

/** The chunk, once it ran (so a design that answers after it renders without waiting). */
let editorChunk: EditorModule | undefined;
/** Started when this module runs. */
const editorImport: Promise<EditorModule> = import('./Editor.tsx').then((m) => (editorChunk = m));
// Read by the component; this handler only keeps an early failure from being "unhandled".
editorImport.catch(() => undefined);

/**
 * The editor of one loaded design (Editor.tsx), with the page's "Opening the editor…" status
 * until its chunk has run. A failed import is thrown from render, so the route's error page
 * shows it.
 */
export function Editor({ loaded }: { loaded: LoadedDesign }) {
  const [chunk, setChunk] = useState(editorChunk);
  const [failure, setFailure] = useState<unknown>();
  useEffect(() => {
    if (chunk) return;
    let live = true;
    editorImport.then(
      (m) => live && setChunk(m),
      (error: unknown) => live && setFailure(error ?? new Error('the editor did not load')),
    );
    return () => {
      live = false;
    };
  }, [chunk]);
  if (failure !== undefined) throw failure;
  if (!chunk) {
    return <PageLoading>Opening the editor…</PageLoading>;
  }
  return <chunk.Editor loaded={loaded} />;
}
