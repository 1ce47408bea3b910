import type { ElementType, HTMLAttributes, ReactNode } from "react";

export type TextSize = "xs" | "sm" | "md" | "lg";

export interface TextProps extends HTMLAttributes<HTMLElement> {
  /** Step on the type scale. Default "md". */
  size?: TextSize;
  /** Secondary colour (still AA contrast on the page and surface backgrounds). */
  muted?: boolean;
  /** Keep to one line and end with an ellipsis. */
  truncate?: boolean;
  /** Element to render. Default "p". */
  as?: ElementType;
  children?: ReactNode;
}

export function Text({
  size = "md",
  muted = false,
  truncate = false,
  as: Element = "p",
  className,
  children,
  ...rest
}: TextProps) {
  let classes = `seed-text seed-text--${size}`;
  if (muted) classes += " seed-text--muted";
  if (truncate) classes += " seed-text--truncate";
  if (className) classes += ` ${className}`;
  return (
    <Element className={classes} {...rest}>
      {children}
    </Element>
  );
}
