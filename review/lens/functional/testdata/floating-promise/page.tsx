import React from 'react';

async function getData(): Promise<string[]> {
  const res = await fetch('/api/items');
  return res.json();
}

export async function Page(): Promise<JSX.Element> {
  getData(); // want "Promise neither awaited nor handled"
  const items = await getData();
  return <ul>{items.map((i) => <li key={i}>{i}</li>)}</ul>;
}

export function Button({ onSave }: { onSave: () => Promise<void> }) {
  return <button onClick={() => { getData(); }}>Save</button>;
}
