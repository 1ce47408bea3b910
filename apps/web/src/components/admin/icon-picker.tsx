import { Icon, type IconName, iconNames } from "@seed/ui";
import styles from "./admin.module.css";
import { describedBy, FieldMessages } from "./form-controls";

/** A radio group of @seed/ui's icons, each drawn next to its name; arrow keys move between them. */
export function IconPicker({
  id,
  name,
  legend,
  defaultValue,
  errors,
}: {
  id: string;
  name: string;
  legend: string;
  defaultValue: IconName | null;
  errors?: string[] | undefined;
}) {
  return (
    <fieldset
      className={styles.iconPicker}
      aria-describedby={describedBy(id, errors)["aria-describedby"]}
    >
      <legend>{legend}</legend>
      <label className={styles.iconChoice}>
        <input type="radio" name={name} value="" defaultChecked={defaultValue === null} />
        <span>No icon</span>
      </label>
      {iconNames.map((iconName) => (
        <label key={iconName} className={styles.iconChoice}>
          <input
            type="radio"
            name={name}
            value={iconName}
            defaultChecked={defaultValue === iconName}
          />
          <Icon name={iconName} size={18} />
          <span>{iconName}</span>
        </label>
      ))}
      <FieldMessages id={id} errors={errors} />
    </fieldset>
  );
}
