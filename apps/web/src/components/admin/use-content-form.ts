"use client";

import { type FormEvent, startTransition, useActionState } from "react";
import { type ContentAction, type ContentFormState, emptyFormState } from "./content-form-state";

/**
 * Runs a content action from onSubmit instead of a form action, so React does not reset the
 * form afterwards and whatever was typed stays when the server answers with errors.
 */
export function useContentForm(action: ContentAction) {
  const [state, formAction, pending] = useActionState<ContentFormState, FormData>(
    action,
    emptyFormState,
  );
  const submit = (formData: FormData) => startTransition(() => formAction(formData));
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submit(new FormData(event.currentTarget));
  };
  return { state, pending, submit, onSubmit };
}
