export function total(items: number[]): number {
  console.log('items', items); // want "Debug statement left in"
  if (items.length === 0) console.debug('empty'); // want "console.debug"
  debugger; // want "Debugger breakpoint left in"
  console.trace( // want "console.trace"
    'where',
  );
  return items.reduce((a, b) => a + b, 0);
}

// Near misses: none of these is reported.
export function fine(items: number[]): number {
  console.error('bad input', items);
  console.warn('deprecated');
  const s = "console.log(items)";
  return s.length;
}
