import { signInWithProvider } from "@/app/login/actions";

/** "Sign in with <provider>": a plain form, so it works before any script has loaded. */
export function ProviderSignIn({ name, next }: { name: string; next: string }) {
  return (
    <form action={signInWithProvider} className="form">
      <input type="hidden" name="next" value={next} />
      <button type="submit" className="button">
        Sign in with {name}
      </button>
    </form>
  );
}
