export { GithubIcon, InstagramIcon } from "./brand-icons";
export { Icon, iconComponents, type NamedIconProps } from "./icon";
export { type IconName, type IconProps, iconNames } from "./icon-types";
// Every export of lucide-icons is one outline icon component.
export * from "./lucide-icons";
