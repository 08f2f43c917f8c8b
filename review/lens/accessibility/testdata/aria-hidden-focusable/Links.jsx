export function Links({ more }) {
  return (
    <div>
      <a href="/a" aria-hidden>Alpha</a> {/* want "aria-hidden on focusable <a>" */}
      <a href="/b" aria-hidden={true}>Beta</a> {/* want "aria-hidden on focusable <a>" */}
      <a href="/c" aria-hidden={false}>Gamma</a>
      <a href="/d" aria-hidden={more}>Delta</a>
      <Link href="/e" aria-hidden="true">Echo</Link>
    </div>
  );
}
