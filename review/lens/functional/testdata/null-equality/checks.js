function parse(price, items, opts, value, kind) {
  if (price === NaN) { // want "Comparison with NaN"
    return 0;
  }
  const bad = NaN !== opts.limit; // want "Comparison with NaN"
  if (value == Number.NaN) return 1; // want "Comparison with NaN"
  if (typeof items === 'array') return items.length; // want "typeof never returns \"array\""
  if (typeof opts.x !== "null") { /* want "typeof never returns \"null\"" */ }
  if ('undefind' === typeof value) return 2; // want "typeof never returns \"undefind\""
  if (value !== null || value !== undefined) return 3; // want "Contradictory comparison"
  if (kind === 'a' && kind === 'b') return 4; // want "Contradictory comparison"
  const sum = a + price === NaN; // want "Comparison with NaN"
  return bad;
}

// Near misses: none of these is reported.
function fine(price, items, value, kind, a) {
  if (Number.isNaN(price)) return 0;
  if (value == null) return 1;
  if (value === null || value === undefined) return 2;
  if (value != null || value != undefined) return 3;
  if (kind !== 'a' && kind !== 'b') return 4;
  if (typeof items === 'object' && Array.isArray(items)) return 5;
  if (typeof value === "function" || typeof value === 'bigint') return 6;
  if (kind === 'a' || kind === 'b') return 7;
  if (a && kind !== 'a' || kind !== 'b') return 8;
  if (kind !== 'a' || kind !== 'b' && a) return 9;
  const msg = "x === NaN";
  const NaNish = 1;
  return a.NaN === 0 || msg || NaNish;
}
