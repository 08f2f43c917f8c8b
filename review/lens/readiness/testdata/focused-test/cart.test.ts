import { describe, it, expect } from 'vitest';

describe.only('cart', () => { // want "Focused test"
  it.only('adds items', () => { // want "Focused test"
    expect(1).toBe(1);
  });
  it.skip('removes items', () => {
    expect(2).toBe(2);
  });
  xit(`applies discounts`, () => {});
  test.describe.only('playwright group', () => {}); // want "Focused test"
});

fdescribe('legacy jasmine', () => { // want "fdescribe\(\) focuses"
  fit('works', () => {}); // want "Focused test"
});

// Near misses: none of these is reported (the skips above are
// readiness/skipped-test).
describe('other', () => {
  it('runs', async () => {
    const rows = await db.query().skip(10).only(['id']);
    const fit = (x: number) => x;
    fit(3);
    expect(rows).toBeDefined();
  });
  it.todo('later');
  it.each([1, 2])('case %i', (n) => expect(n).toBeGreaterThan(0));
});
