export function Card({ open, close, select, item, rest }) {
  return (
    <section>
      <div className="card" onClick={open}>Open report</div> {/* want "Click handler on <div> is not keyboard accessible" */}
      <div className="card" onClick={open} role="button" tabIndex={0} onKeyDown={onKey}>Open</div>
      <div onClick={open} role="button" tabIndex={0}>Open</div> {/* want "no keyboard handler \(onKeyDown\)" */}
      <span onClick={open} tabIndex={-1} role="button" onKeyDown={onKey}>x</span> {/* want "not focusable \(no tabIndex=\{0\}\)" */}
      <a onClick={open}>More</a> {/* want "<a> without href" */}
      <a href="/more" onClick={track}>More</a>
      <button onClick={open}>Open</button>
      <div className="backdrop" onClick={close} role="presentation" />
      <div className="row" onClick={select}><input type="checkbox" /> {item}</div>
      <ul onClick={select}><li><button>One</button></li></ul>
      <li onClick={select} role="option" aria-selected="false">{item}</li>
      <div onClick={open} {...rest}>Open</div>
      <Card onClick={open} />
      <img src="/x.png" alt="Zoom" onClick={open} /> {/* want "2\.1\.1 Keyboard \(Level A\)" */}
      <div aria-hidden="true" onClick={close} />
    </section>
  );
}
