// A wrapper whose label lives in the caller: its id is a prop.
export function Field({ id, value }: { id: string; value: string }) {
  return <input id={id} type="text" value={value} />;
}

export function Static() {
  return <input id="static-only" type="text" />; // want "without a label"
}
