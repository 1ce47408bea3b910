import {
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useEffect,
  useRef,
  useState,
} from "react";
import type { FormState } from "@/lib/form-state";

/** Ids for a control and its messages, so aria-describedby points at what is shown. */
export function describedBy(id: string, errors: string[] | undefined, hint?: string) {
  const ids = [hint ? `${id}-hint` : null, errors?.length ? `${id}-error` : null].filter(Boolean);
  return {
    "aria-invalid": errors?.length ? true : undefined,
    "aria-describedby": ids.length > 0 ? ids.join(" ") : undefined,
  } as const;
}

/**
 * The messages of every field whose path passes `test`, each once: a row shows the store's
 * problems with it (paths like "query.filters.2.value"), a rule broken on several copies once.
 */
export function errorsWhere(
  errors: Record<string, string[] | undefined>,
  test: (path: string) => boolean,
): string[] {
  return [
    ...new Set(
      Object.entries(errors).flatMap(([path, messages]) => (test(path) ? (messages ?? []) : [])),
    ),
  ];
}

export function FieldMessages({
  id,
  errors,
  hint,
}: {
  id: string;
  errors: string[] | undefined;
  hint?: string;
}) {
  return (
    <>
      {hint ? (
        <span id={`${id}-hint`} className="muted">
          {hint}
        </span>
      ) : null}
      {errors?.length ? (
        <p id={`${id}-error`} className="field-error">
          {errors.join(" ")}
        </p>
      ) : null}
    </>
  );
}

interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  id: string;
  label: string;
  errors?: string[] | undefined;
  hint?: string;
  children: ReactNode;
}

export function SelectField({ id, label, errors, hint, children, ...select }: SelectFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} {...describedBy(id, errors, hint)} {...select}>
        {children}
      </select>
      <FieldMessages id={id} errors={errors} hint={hint} />
    </div>
  );
}

interface ChoiceFieldProps<T extends string>
  extends Omit<SelectFieldProps, "children" | "value" | "onChange"> {
  value: T;
  /** The choices in the order offered; each is shown by its label. */
  choices: readonly T[];
  labels: Readonly<Record<T, string>>;
  onChoose: (choice: T) => void;
}

/** A select of named choices: the one way the admin forms offer a fixed list. */
export function ChoiceField<T extends string>({
  value,
  choices,
  labels,
  onChoose,
  ...field
}: ChoiceFieldProps<T>) {
  return (
    <SelectField
      {...field}
      value={value}
      // Only the choices are offered, so the value read back is one of them.
      onChange={(event) => onChoose(event.currentTarget.value as T)}
    >
      {choices.map((choice) => (
        <option key={choice} value={choice}>
          {labels[choice]}
        </option>
      ))}
    </SelectField>
  );
}

interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  id: string;
  label: string;
  errors?: string[] | undefined;
  hint?: string;
}

export function TextAreaField({ id, label, errors, hint, ...textarea }: TextAreaFieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} {...describedBy(id, errors, hint)} {...textarea} />
      <FieldMessages id={id} errors={errors} hint={hint} />
    </div>
  );
}

/**
 * The form-level outcome, announced politely; field messages sit next to their fields (or here,
 * with `withFieldErrors`, for forms without visible fields). After each submit that answers,
 * focus moves here, so keyboard and screen reader users land on the result, not on <body>.
 */
export function FormMessages({
  state,
  withFieldErrors = false,
}: {
  state: FormState<Record<string, string>>;
  withFieldErrors?: boolean;
}) {
  const region = useRef<HTMLDivElement>(null);
  const initial = useRef(state);
  const fieldMessages = withFieldErrors ? Object.values(state.fieldErrors ?? {}).flat() : [];
  const hasOutcome = Boolean(state.message || state.formError || fieldMessages.length > 0);
  useEffect(() => {
    if (state !== initial.current && hasOutcome) region.current?.focus();
  }, [state, hasOutcome]);
  // A success message gives way to the next one: another form's submit hides it.
  const [hiddenState, setHiddenState] = useState<FormState<Record<string, string>> | null>(null);
  useEffect(() => {
    if (!state.message) return;
    const onSubmit = (event: SubmitEvent) => {
      if (!region.current?.closest("form")?.contains(event.target as Node)) setHiddenState(state);
    };
    document.addEventListener("submit", onSubmit);
    return () => document.removeEventListener("submit", onSubmit);
  }, [state]);
  const message = hiddenState === state ? undefined : state.message;
  return (
    <div role="status" ref={region} tabIndex={-1} className="form-messages">
      {message ? <p className="form-status">{message}</p> : null}
      {state.formError ? <p className="form-error">{state.formError}</p> : null}
      {fieldMessages.length > 0 ? <p className="form-error">{fieldMessages.join(" ")}</p> : null}
    </div>
  );
}
