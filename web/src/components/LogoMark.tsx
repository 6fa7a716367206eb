import { useId } from 'react';

/**
 * The PicSnippets logo mark: a photo (sun and hills) with a text snippet over it.
 * Decorative (`aria-hidden`); the product name always sits next to it as text.
 * `size` is in CSS px. Same drawing as `web/public/favicon.svg`.
 */
export function LogoMark({ size = 32 }: { size?: number }) {
  // useId may hold characters that are not safe inside `url(#…)`.
  const gradientId = `logo-${useId().replace(/[^\w-]/g, '')}`;
  return (
    <svg
      className="logo-mark"
      width={size}
      height={size}
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
    >
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#6366f1" />
          <stop offset="1" stopColor="#3730a3" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${gradientId})`} />
      <circle cx="22.5" cy="9.5" r="3" fill="#fcd34d" />
      <path d="M3 25 11 14.5l5.5 7 3-3.5L29 25v1a4 4 0 0 1-4 4H7a4 4 0 0 1-4-4Z" fill="#a5b4fc" />
      <rect x="6" y="19" width="20" height="8" rx="4" fill="#fff" />
      <rect x="9.5" y="22" width="9" height="2" rx="1" fill="#4338ca" />
      <rect x="20" y="21" width="2" height="4" rx="1" fill="#f59e0b" />
    </svg>
  );
}
