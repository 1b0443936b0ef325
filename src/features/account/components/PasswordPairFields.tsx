import type { FieldErrors } from '../validation';
import { TextField } from './Form';

type PairField = 'password' | 'confirmation';

interface Props {
  /** "Password" on sign-up, "New password" where one is changed or reset. */
  label: string;
  values: Record<PairField, string>;
  errors: FieldErrors<PairField>;
  onChange: (field: PairField, value: string) => void;
}

/** A new password typed twice; the form's validation compares the two. */
export function PasswordPairFields({ label, values, errors, onChange }: Props) {
  return (
    <>
      <TextField
        label={label}
        type="password"
        name="password"
        autoComplete="new-password"
        required
        value={values.password}
        error={errors.password}
        onChange={(event) => onChange('password', event.target.value)}
      />
      <TextField
        label={`${label} confirmation`}
        type="password"
        name="confirmation"
        autoComplete="new-password"
        required
        value={values.confirmation}
        error={errors.confirmation}
        onChange={(event) => onChange('confirmation', event.target.value)}
      />
    </>
  );
}
