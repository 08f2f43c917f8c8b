import { useId } from 'react';

export function LoginForm({ onSubmit, inputProps }: Props) {
  const id = useId();
  return (
    <form onSubmit={onSubmit}>
      <label htmlFor={`${id}-user`}>User</label>
      <input id={`${id}-user`} type="text" />
      <input type="password" /> {/* want "<input type=\"password\"> without a label" */}
      <input type="text" {...inputProps} />
      <input type={kind} />
      <TextField label="Email" />
      <FormLabel>Remember me <input type="checkbox" /></FormLabel>
      {error && <input type="text" value={error} readOnly aria-label="Error details" />}
    </form>
  );
}
