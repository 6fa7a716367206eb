/**
 * The editor's code (fabric, the panels, the toolbars: most of the route's script) as a chunk of
 * its own, whose import starts as soon as the editor page's small chunk runs, so its download
 * and start-up overlap the design request and the preloads (preload.ts) instead of coming
 * before them (docs/performance.md "Editor").
 */
import { lazy, Suspense } from 'react';
import { Spinner } from '../../components/Spinner.tsx';
import type { LoadedDesign } from './store/designSlice.ts';

/** Started when this module runs; a failed import shows the route's error page. */
const editorModule = import('./Editor.tsx');
const EditorView = lazy(() => editorModule.then((m) => ({ default: m.Editor })));

/**
 * The editor of one loaded design (Editor.tsx), with the page's "Opening the editor…" status
 * until its chunk has run.
 */
export function Editor({ loaded }: { loaded: LoadedDesign }) {
  return (
    <Suspense
      fallback={
        <div className="container">
          <p className="muted" role="status">
            <Spinner /> Opening the editor…
          </p>
        </div>
      }
    >
      <EditorView loaded={loaded} />
    </Suspense>
  );
}
