// reporter.mjs: a node:test reporter printing one line per test, the
// format every editors/e2e/<client>/run.sh prints:
//   PASS node: <test name>
//   FAIL node: <test name>: <first lines of the reason>
// and a closing summary line.

function reason(err) {
  const e = err?.cause ?? err;
  const text = String(e?.message ?? e ?? 'failed');
  return text.split('\n').filter((l) => l.trim()).slice(0, 6).join(' | ');
}

export default async function* reporter(source) {
  let pass = 0;
  let fail = 0;
  for await (const event of source) {
    if (event.type === 'test:pass' && !event.data.skip) {
      pass++;
      yield `PASS node: ${event.data.name} (${Math.round(event.data.details.duration_ms)} ms)\n`;
    } else if (event.type === 'test:fail') {
      fail++;
      yield `FAIL node: ${event.data.name}: ${reason(event.data.details.error)}\n`;
    }
  }
  yield `node: ${pass} passed, ${fail} failed\n`;
}
