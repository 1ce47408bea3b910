import type { ElementType, HTMLAttributes, ReactNode } from "react";

export type HeadingLevel = 1 | 2 | 3 | 4;

export interface HeadingProps extends HTMLAttributes<HTMLHeadingElement> {
  /** Visual size on the type scale; also the element (h1-h4) unless `as` is given. */
  level: HeadingLevel;
  /** Element to render, e.g. "h2" styled as level 3 to keep the document outline right. */
  as?: ElementType;
  children?: ReactNode;
}

export function Heading({ level, as, className, children, ...rest }: HeadingProps) {
  const Element: ElementType = as ?? `h${level}`;
  const classes = `seed-heading seed-heading--${level}${className ? ` ${className}` : ""}`;
  return (
    <Element className={classes} {...rest}>
      {children}
    </Element>
  );
}
