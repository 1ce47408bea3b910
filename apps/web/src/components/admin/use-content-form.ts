"use client";

import { type FormEvent, startTransition, useActionState } from "react";
import { type ContentAction, type ContentFormState, emptyFormState } from "./content-form-state";

/**
 * Runs a form's server action from onSubmit instead of the form's action, so React does not reset
 * the form afterwards: whatever was typed or chosen stays when the server answers with errors.
 */
export function useKeptForm<State>(
  action: (state: Awaited<State>, data: FormData) => State | Promise<State>,
  initial: Awaited<State>,
) {
  const [state, formAction, pending] = useActionState<State, FormData>(action, initial);
  const submit = (formData: FormData) => startTransition(() => formAction(formData));
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submit(new FormData(event.currentTarget));
  };
  return { state, pending, submit, onSubmit };
}

/** useKeptForm for the content forms' actions and their state. */
export function useContentForm(action: ContentAction) {
  return useKeptForm<ContentFormState>(action, emptyFormState);
}
