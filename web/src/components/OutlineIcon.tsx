import type { SVGProps } from 'react';

/**
 * A 24 × 24 outline icon of stroked paths in the text's colour (Tabler Icons' drawing: 2 px
 * round strokes, no fill), `size` px wide and high. Naming (a label, or hidden) is the caller's.
 */
export function OutlineIcon({
  paths,
  size,
  ...rest
}: { paths: readonly string[]; size: number } & Omit<SVGProps<SVGSVGElement>, 'children'>) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      {...rest}
    >
      {paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
