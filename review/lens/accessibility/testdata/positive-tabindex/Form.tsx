export function Form({ idx }: { idx: number }) {
  return (
    <form>
      <input name="q" tabIndex={2} /> {/* want "Positive tabindex \(2\)" */}
      <input name="r" tabIndex={"5"} /> {/* want "Positive tabindex \(5\)" */}
      <input name="s" tabIndex={idx} />
      <input name="t" tabIndex={0} />
    </form>
  );
}
