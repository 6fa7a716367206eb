import { useEffect } from 'react';

/** Sets the tab title to "`page` · PicSnippets" (or just the product name without a page). */
export function useDocumentTitle(page?: string): void {
  useEffect(() => {
    document.title = page ? `${page} · PicSnippets` : 'PicSnippets';
  }, [page]);
}
