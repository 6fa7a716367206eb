import type { ComponentProps } from 'react';
import ReactMarkdown, { type UrlTransform } from 'react-markdown';
import { isHttpUrl } from '#shared/contract/kiosk.ts';

/**
 * Only http and https links are kept (docs/kiosk.md "Announcements"): anything else
 * (`javascript:`, `data:`, a relative path) becomes no link at all.
 */
const httpOnly: UrlTransform = (url) => (isHttpUrl(url) ? url : '');

/** Links open in a new tab without handing it this page (`noopener noreferrer`). */
const COMPONENTS: ComponentProps<typeof ReactMarkdown>['components'] = {
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
};

/**
 * Markdown written by an admin (announcement bodies; the kiosk and the notifications panel),
 * rendered safely with react-markdown: raw HTML in the text is dropped (`skipHtml`, never
 * parsed into the page), images are left out (no third-party requests from a notification),
 * and links are http or https only. Headings of levels 1 to 3 come out as their plain text, so
 * an announcement never outranks the headings of the page that shows it.
 */
export function Markdown({ children, className }: { children: string; className?: string }) {
  return (
    <div className={className ? `markdown ${className}` : 'markdown'}>
      <ReactMarkdown
        skipHtml
        urlTransform={httpOnly}
        disallowedElements={['img', 'h1', 'h2', 'h3']}
        unwrapDisallowed
        components={COMPONENTS}
      >
        {children}
      </ReactMarkdown>
    </div>
  );
}
