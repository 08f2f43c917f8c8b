export function View({ items }) {
  if (items.length === 0)
    console.log('empty'); // want "console.log"
  return <ul>{items.map((i) => <li key={i}>{i}</li>)}</ul>;
}
