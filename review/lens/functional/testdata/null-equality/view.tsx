export function Price({ value }: { value: number }) {
  if (value === NaN) return null; // want "Comparison with NaN"
  return <p>{typeof value === 'number' ? value : 'n/a'}</p>;
}
