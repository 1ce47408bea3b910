import { forwardRef } from "react";
import { siGithub, siInstagram } from "simple-icons";
import { type IconName, type IconProps, iconRootProps } from "./icon-types";

interface BrandSvgProps extends IconProps {
  name: IconName;
  path: string;
}

// Brand marks are filled shapes on simple-icons' 24px grid; tsup inlines just these two paths.
const BrandSvg = /* @__PURE__ */ forwardRef<SVGSVGElement, BrandSvgProps>(function BrandSvg(
  { name, path, size = 24, label, className, style },
  ref,
) {
  return (
    // biome-ignore lint/a11y/noSvgWithoutTitle: iconRootProps gives role="img" + aria-label, or aria-hidden.
    <svg
      ref={ref}
      xmlns="http://www.w3.org/2000/svg"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="currentColor"
      {...iconRootProps(name, { label, className, style })}
    >
      <path d={path} />
    </svg>
  );
});

export const GithubIcon = /* @__PURE__ */ forwardRef<SVGSVGElement, IconProps>(
  function GithubIcon(props, ref) {
    return <BrandSvg ref={ref} name="github" path={siGithub.path} {...props} />;
  },
);

export const InstagramIcon = /* @__PURE__ */ forwardRef<SVGSVGElement, IconProps>(
  function InstagramIcon(props, ref) {
    return <BrandSvg ref={ref} name="instagram" path={siInstagram.path} {...props} />;
  },
);
