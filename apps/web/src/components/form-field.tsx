"use client";

import { type InputHTMLAttributes, useState } from "react";

interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  name: string;
  label: string;
  errors?: string[] | undefined;
  hint?: string;
}

/** Characters as the store counts them: code points of the trimmed text, as zod's max() does. */
export function countedLength(value: unknown): number {
  return Array.from(String(value ?? "").trim()).length;
}

/**
 * How long a limited text is, shown from 80% of its limit and saying how much is over: the one
 * counter of every field with a length limit (the browser's maxLength would cut pasted text).
 */
export function LengthCount({ id, length, max }: { id: string; length: number; max: number }) {
  if (length < Math.floor(max * 0.8)) return null;
  const over = length > max;
  return (
    <span id={id} className={over ? "field-error" : "muted"} aria-live="polite">
      {over
        ? `${length.toLocaleString("en-US")} characters: keep it under ${(max + 1).toLocaleString("en-US")}.`
        : `${length.toLocaleString("en-US")} of ${max.toLocaleString("en-US")} characters`}
    </span>
  );
}

/**
 * Label, input and its error messages, wired with aria-invalid/aria-describedby. A `maxLength`
 * is never handed to the browser, which would cut pasted text silently: the field counts instead
 * (from 80% of the limit) and says how much is over; the server refuses what is too long.
 */
export function FormField({
  name,
  label,
  errors,
  hint,
  id,
  maxLength,
  onChange,
  ...input
}: FormFieldProps) {
  const inputId = id ?? `field-${name}`;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const countId = `${inputId}-count`;
  const [length, setLength] = useState(() => countedLength(input.value ?? input.defaultValue));
  const limited = maxLength !== undefined && maxLength > 0;
  const over = limited && length > maxLength;
  const counted = limited && length >= Math.floor(maxLength * 0.8);
  const describedBy = [
    hint ? hintId : null,
    counted ? countId : null,
    errors?.length ? errorId : null,
  ]
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
        aria-invalid={errors?.length || over ? true : undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => {
          setLength(countedLength(event.currentTarget.value));
          onChange?.(event);
        }}
        {...input}
      />
      {limited ? <LengthCount id={countId} length={length} max={maxLength} /> : null}
      {errors?.length ? (
        <p id={errorId} className="field-error">
          {errors.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
