export function total(items: number[]): number {
  // const tax = items.length * 0.2; // want "Commented-out code"
  // if (tax > 10) {
  //   throw new Error('too much tax');
  // }
  return items.reduce((a, b) => a + b, 0);
}

// Near misses: none of these is reported.

/*
const a = 1;
const b = 2;
const c = 3;
*/

// The total is computed without tax: tax rules differ per region and
// are applied by the checkout service (see checkout/tax.ts), which also
// rounds the result to cents.
export const url = "http://example.com // not a comment";
// eslint-disable-next-line no-console
// @ts-expect-error legacy
// prettier-ignore
export const n = 1;
