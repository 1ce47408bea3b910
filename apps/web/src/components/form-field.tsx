import type { InputHTMLAttributes } from "react";

interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  name: string;
  label: string;
  errors?: string[] | undefined;
  hint?: string;
}

/** Label, input and its error messages, wired with aria-invalid/aria-describedby. */
export function FormField({ name, label, errors, hint, id, ...input }: FormFieldProps) {
  const inputId = id ?? `field-${name}`;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = [hint ? hintId : null, errors?.length ? errorId : null]
    .filter(Boolean)
    .join(" ");
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      {hint ? (
        <span id={hintId} className="muted">
          {hint}
        </span>
      ) : null}
      <input
        id={inputId}
        name={name}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      {errors?.length ? (
        <p id={errorId} className="field-error">
          {errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
