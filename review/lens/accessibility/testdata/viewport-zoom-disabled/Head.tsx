// A React head component with zoom disabled, and the fixed form.
export function Head() {
  return (
    <>
      <meta name="viewport" content="width=device-width, initial-scale=1, user-scalable=no" /> {/* want "user-scalable=no" */}
      <meta name="viewport" content={viewport} />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
    </>
  );
}
