export const A = () => (
  <div>
    {/* want "fewer than 3" */}{/* reviewls:ignore accessibility/img-alt decorative */}
    <img src="x.png" />
  </div>
);
const s = "/* reviewls:ignore security/eval */";
