"use client";

import { useActionState } from "react";
import {
  confirmTwoFactorSetup,
  replaceRecoveryCodes,
  startTwoFactorSetup,
  type TwoFactorFormState,
  turnOffTwoFactor,
} from "@/app/admin/account/actions";
import { FormMessages } from "@/components/admin/form-controls";
import { FormField } from "@/components/form-field";

/** Recovery codes shown once, as a list to copy or print. */
function RecoveryCodes({ codes }: { codes: string }) {
  const list = codes.split("\n").filter(Boolean);
  return (
    <section aria-labelledby="recovery-codes-title" className="stack">
      <h3 id="recovery-codes-title">Recovery codes</h3>
      <p className="muted">
        Each signs you in once in place of a code from your app, if you lose your phone. Keep them
        somewhere safe: they are not shown again.
      </p>
      <ul className="recovery-codes" aria-label="Recovery codes">
        {list.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PasswordField({ id, errors }: { id: string; errors: string[] | undefined }) {
  return (
    <FormField
      name="password"
      label="Your password"
      id={id}
      type="password"
      autoComplete="current-password"
      required
      errors={errors}
    />
  );
}

/** Off: set up with the password, add the key to an app, confirm its code. */
function SetUp() {
  const [started, start, starting] = useActionState<TwoFactorFormState, FormData>(
    startTwoFactorSetup,
    {},
  );
  const [confirmed, confirm, confirming] = useActionState<TwoFactorFormState, FormData>(
    confirmTwoFactorSetup,
    {},
  );
  const setupKey = started.setupKey;
  return (
    <div className="stack">
      <FormMessages state={started} />
      {setupKey && started.qrCode ? (
        <div className="stack">
          <section aria-labelledby="setup-key-title" className="stack">
            <h3 id="setup-key-title">1. Add the key to your authenticator app</h3>
            <img
              src={started.qrCode}
              width={200}
              height={200}
              alt="QR code of the key, for an authenticator app's camera"
              className="qr-code"
            />
            <p>
              Or type this key: <code data-testid="two-factor-key">{setupKey}</code>
            </p>
          </section>
          {started.recoveryCodes ? <RecoveryCodes codes={started.recoveryCodes} /> : null}
          <form
            action={confirm}
            className="form"
            noValidate
            aria-label="Confirm two-factor sign-in"
          >
            <h3>2. Enter the code your app shows</h3>
            <FormMessages state={confirmed} />
            <FormField
              name="code"
              label="6-digit code"
              id="two-factor-confirm-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              errors={confirmed.fieldErrors?.code}
            />
            <div>
              <button type="submit" className="button" disabled={confirming}>
                {confirming ? "Checking…" : "Turn on two-factor sign-in"}
              </button>
            </div>
          </form>
        </div>
      ) : null}
      <form action={start} className="form" noValidate aria-label="Set up two-factor sign-in">
        <PasswordField id="two-factor-setup-password" errors={started.fieldErrors?.password} />
        <div>
          <button
            type="submit"
            className={setupKey ? "button button-secondary" : "button"}
            disabled={starting}
          >
            {starting ? "Making a key…" : setupKey ? "Make a new key" : "Set up two-factor sign-in"}
          </button>
        </div>
      </form>
    </div>
  );
}

/** On: new recovery codes, or turn it off (unless the role requires it). */
function Manage({ required }: { required: boolean }) {
  const [codes, renew, renewing] = useActionState<TwoFactorFormState, FormData>(
    replaceRecoveryCodes,
    {},
  );
  const [off, turnOff, turningOff] = useActionState<TwoFactorFormState, FormData>(
    turnOffTwoFactor,
    {},
  );
  return (
    <div className="stack">
      <p>Two-factor sign-in is on: after your password, you enter a code from your app.</p>
      <form action={renew} className="form" noValidate aria-label="New recovery codes">
        <h3>New recovery codes</h3>
        <FormMessages state={codes} />
        {codes.recoveryCodes ? <RecoveryCodes codes={codes.recoveryCodes} /> : null}
        <PasswordField id="recovery-codes-password" errors={codes.fieldErrors?.password} />
        <div>
          <button type="submit" className="button button-secondary" disabled={renewing}>
            Make new recovery codes
          </button>
        </div>
      </form>
      {required ? (
        <p className="muted">
          Your role must use two-factor sign-in here, so it cannot be turned off.
        </p>
      ) : (
        <form action={turnOff} className="form" noValidate aria-label="Turn off two-factor sign-in">
          <h3>Turn it off</h3>
          <FormMessages state={off} />
          <PasswordField id="two-factor-off-password" errors={off.fieldErrors?.password} />
          <div>
            <button type="submit" className="button button-secondary" disabled={turningOff}>
              Turn off two-factor sign-in
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

export function TwoFactorPanel({ enabled, required }: { enabled: boolean; required: boolean }) {
  return enabled ? <Manage required={required} /> : <SetUp />;
}
