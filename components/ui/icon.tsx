import type { ReactNode, SVGProps } from "react";

/**
 * The product's icons as inline SVG: no icon font to download, they inherit the text colour, and they
 * are decorative (aria-hidden) — every control that shows one also carries a text label.
 */
export type IconProps = SVGProps<SVGSVGElement> & { size?: number };

/** Makes an icon component of the house shape; features with icons of their own draw them through this. */
export function icon(children: ReactNode, name: string, defaults: { size?: number; strokeWidth?: number } = {}) {
  function Icon({ size = defaults.size ?? 20, ...rest }: IconProps) {
    return (
      <svg
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={defaults.strokeWidth ?? 1.8}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        {...rest}
      >
        {children}
      </svg>
    );
  }
  Icon.displayName = name;
  return Icon;
}
