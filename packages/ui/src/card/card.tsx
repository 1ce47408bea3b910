import { type ElementType, type HTMLAttributes, type ReactNode, useId } from "react";

export interface CardProps extends Omit<HTMLAttributes<HTMLElement>, "title"> {
  /** Heading of the card; also names the card for assistive technology. */
  title?: ReactNode;
  description?: ReactNode;
  /** Controls shown at the end of the header, e.g. buttons or links. */
  actions?: ReactNode;
  /** Element for the title. Default "h3". */
  titleAs?: ElementType;
  /** Element to render. Default "section". */
  as?: ElementType;
  children?: ReactNode;
}

export function Card({
  title,
  description,
  actions,
  titleAs: TitleElement = "h3",
  as: Element = "section",
  className,
  children,
  ...rest
}: CardProps) {
  const titleId = useId();
  const hasHeader = title != null || description != null || actions != null;
  return (
    <Element
      className={className ? `seed-card ${className}` : "seed-card"}
      aria-labelledby={title != null ? titleId : undefined}
      {...rest}
    >
      {hasHeader ? (
        <div className="seed-card__header">
          <div className="seed-card__heading">
            {title != null ? (
              <TitleElement id={titleId} className="seed-card__title">
                {title}
              </TitleElement>
            ) : null}
            {description != null ? <p className="seed-card__description">{description}</p> : null}
          </div>
          {actions != null ? <div className="seed-card__actions">{actions}</div> : null}
        </div>
      ) : null}
      <div className="seed-card__body">{children}</div>
    </Element>
  );
}
